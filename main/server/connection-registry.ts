import type { AgentNotifier } from '../engine/kernel/ports';
import type { RpcConnection } from './rpc-connection';

/** Open agent connections by session and agent, so the engine can notify them. */
export class ConnectionRegistry implements AgentNotifier {
  private readonly bySession = new Map<string, Set<RpcConnection>>();
  readonly all = new Set<RpcConnection>();

  add(conn: RpcConnection): void {
    this.all.add(conn);
  }

  bind(conn: RpcConnection): void {
    const id = conn.caller?.sessionId;
    if (!id) return;
    let set = this.bySession.get(id);
    if (!set) this.bySession.set(id, (set = new Set()));
    set.add(conn);
  }

  remove(conn: RpcConnection): void {
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
