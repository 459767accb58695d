import type { AgentNotifier } from '../engine/kernel/ports';
import type { RpcSession } from './rpc-session';

/** Open agent connections by session and agent, so the engine can notify them. */
export class ConnectionRegistry implements AgentNotifier {
  private readonly bySession = new Map<string, Set<RpcSession>>();
  readonly all = new Set<RpcSession>();

  add(conn: RpcSession): void {
    this.all.add(conn);
  }

  bind(conn: RpcSession): void {
    const id = conn.caller?.sessionId;
    if (!id) return;
    let set = this.bySession.get(id);
    if (!set) this.bySession.set(id, (set = new Set()));
    set.add(conn);
  }

  remove(conn: RpcSession): void {
    this.all.delete(conn);
    const id = conn.caller?.sessionId;
    if (!id) return;
    const set = this.bySession.get(id);
    set?.delete(conn);
    if (set?.size === 0) this.bySession.delete(id);
  }

  toSession(sessionId: string, method: 'decision' | 'control', params: object): void {
    for (const c of this.bySession.get(sessionId) ?? []) c.notify(method, params);
  }

  toAgent(agent: string | undefined, method: 'control', params: object): void {
    for (const c of this.all) {
      if (c.caller && (agent === undefined || c.caller.agent === agent)) c.notify(method, params);
    }
  }
}
