import type { RequestRecord, SessionRecord } from '../../../../shared/domain';
import type { GatehouseEvent } from '../../../../shared/events';
import { adminMethods, isAdminMethod } from '../../../../shared/protocol/method-map';
import type { AdminMethod, AdminParams, AdminResult } from '../../../../shared/protocol/method-map';
import { ErrorCode, GatehouseError } from '../../../../shared/protocol/errors';
import { parseParams } from '../../../../shared/protocol/validate';
import type { AdminService } from '../../../../main/server/admin-port';
import type { BreakerRow } from '../../../../shared/protocol/guard-methods';
import type { HubLinkStatus } from '../../../../shared/protocol/admin-methods';

/** A pending request with every required field, overridable per test. */
export function pendingRequest(overrides: Partial<RequestRecord> = {}): RequestRecord {
  return {
    requestId: 'req-1',
    sessionId: 'ses-1',
    agent: 'builder',
    action: 'git_push',
    description: 'Push branch feature/x to origin',
    urgency: 'normal',
    status: 'pending',
    tier: 'ask',
    rule: 'default:git_push',
    ruleReason: 'leaves the local sandbox',
    createdAt: '2026-01-05T09:00:00.000Z',
    ...overrides,
  };
}

/**
 * An AdminService that validates params exactly like the real one (through the method map),
 * records every call and answers from a small in-memory state.
 */
export class FakeAdmin implements AdminService {
  readonly calls: { method: string; params: unknown }[] = [];
  pending: RequestRecord[] = [];
  paused = false;
  settings: Record<string, unknown> = { 'notifications.quietHours.enabled': false };
  /** Breakers `guards.breakers` lists; null stands for a core without guardrails. */
  breakers: BreakerRow[] | null = null;
  sessions: SessionRecord[] = [];
  /** What `status` says of the waiting requests of paused, killed and gone agents. */
  pendingAgentsAway: { paused: number; killed: number; gone: number } | undefined;
  /** What `status` says of the joined hub's link; absent when not joined. */
  hub: HubLinkStatus | undefined;
  private listeners = new Set<(event: GatehouseEvent) => void>();

  async invoke<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>> {
    return (await this.invokeUnchecked(method, params)) as AdminResult<K>;
  }

  async invokeUnchecked(method: string, params: unknown): Promise<unknown> {
    if (!isAdminMethod(method)) {
      throw new GatehouseError(ErrorCode.MethodNotFound, `unknown method: ${method}`);
    }
    const parsed = parseParams(adminMethods[method].params, params) as Record<string, unknown>;
    this.calls.push({ method, params: parsed });
    switch (method) {
      case 'pending.list':
        // Paged as the engine pages it: the first `limit` and the total.
        return {
          requests: this.pending.slice(0, parsed.limit as number),
          total: this.pending.length,
        };
      case 'status':
        return {
          version: '0.1.0',
          pid: 1,
          socketPath: '/tmp/x.sock',
          home: '/tmp',
          startedAt: '2026-01-05T09:00:00.000Z',
          pending: this.pending.length,
          timedOut: this.pending.filter((r) => r.status === 'timed_out').length,
          ...(this.pendingAgentsAway ? { pendingAgentsAway: this.pendingAgentsAway } : {}),
          activeSessions: 0,
          agents: 0,
          paused: this.paused,
          ...(this.hub ? { hub: this.hub } : {}),
        };
      case 'settings.get':
        return { settings: {}, value: this.settings[parsed.key as string] };
      case 'settings.set':
        this.settings[parsed.key as string] = parsed.value;
        return { settings: {} };
      case 'guards.breakers':
        if (!this.breakers) throw new GatehouseError(ErrorCode.MethodNotFound, 'unknown method');
        return { breakers: this.breakers };
      case 'guards.recover': {
        const name = `safety_switch:${parsed.sessionId as string}`;
        this.breakers = (this.breakers ?? []).filter((b) => b.name !== name);
        return { recovered: true, mode: 'normal' };
      }
      case 'sessions.list':
        return { sessions: this.sessions };
      case 'pause':
        this.paused = true;
        return { agents: [], state: 'paused' };
      case 'resume':
        this.paused = false;
        return { agents: [], state: 'resumed' };
      case 'decide': {
        const request = this.pending.find((r) => r.requestId === parsed.requestId);
        if (!request) throw new GatehouseError(ErrorCode.NotFound, 'request not found');
        this.pending = this.pending.filter((r) => r !== request);
        return {
          request: { ...request, status: parsed.decision === 'approve' ? 'approved' : 'denied' },
        };
      }
      default:
        return {};
    }
  }

  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: GatehouseEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  callsOf(method: string): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.params);
  }
}

/** Lets queued promise callbacks run (several rounds, for chains of awaits). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

// Listeners of different events take different arguments; `emit` supplies them.
type Listener = (...args: never[]) => unknown;

/** Records listeners per event, so a test can emit events as Electron would. */
export class FakeEmitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener) {
    return this.on(event, listener);
  }
  /** Calls the event's listeners with `args` and returns what they returned. */
  emit(event: string, ...args: unknown[]): unknown[] {
    return (this.listeners.get(event) ?? []).map((l) =>
      (l as (...a: unknown[]) => unknown)(...args),
    );
  }
}
