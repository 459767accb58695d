import type { RequestRecord } from '../../shared/domain';
import type { ChannelHealth } from '../../shared/protocol/admin-methods';
import type { GatehouseEvent } from '../../shared/events';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import {
  adminMethods,
  isAdminMethod,
  type AdminMethod,
  type AdminParams,
  type AdminParsedParams,
  type AdminResult,
} from '../../shared/protocol/method-map';
import { parseParams } from '../../shared/protocol/validate';
import { iso } from '../engine/clock';
import type { Engine } from '../engine/engine';
import type { EventBus } from '../engine/event-bus';
import { draftLadder } from '../engine/policy/rule-draft';
import { describeRule, normaliseDraft } from '../engine/policy/rule-match';
import { compact, toRequestRecord } from '../engine/records';
import { buildSessionReport } from '../engine/session-report';
import { sessionTranscript } from '../engine/transcript';
import type { AdminService } from './admin-port';
import { storageFailure } from './rpc-errors';

type Handlers = {
  [K in AdminMethod]: (p: AdminParsedParams<K>) => AdminResult<K> | Promise<AdminResult<K>>;
};

/** Facts about the running process that `status` reports. */
export interface RuntimeInfo {
  version: string;
  socketPath: string;
  home: string;
  startedAt: number;
  dashboardUrl?: () => string | undefined;
  /** The notifier's channel health, once it runs (see NotificationDispatcher.health). */
  channelHealth?: () => ChannelHealth[] | undefined;
}

/** Extra admin methods contributed by other services (the guardrails), by name. */
export type ExtraHandlers = Partial<Handlers>;

/**
 * The human side of Gatehouse, one implementation for every transport. Parameters are
 * validated against the shared method map before a handler sees them.
 */
export class EngineAdminService implements AdminService {
  private readonly handlers: Partial<Handlers>;

  constructor(
    private readonly engine: Engine,
    private readonly bus: EventBus,
    private readonly runtime: RuntimeInfo,
    extra: ExtraHandlers = {},
  ) {
    this.handlers = { ...this.coreHandlers(), ...extra };
  }

  async invoke<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>> {
    return (await this.invokeUnchecked(method, params)) as AdminResult<K>;
  }

  async invokeUnchecked(method: string, params: unknown): Promise<unknown> {
    if (!isAdminMethod(method))
      throw new GatehouseError(ErrorCode.MethodNotFound, `unknown admin method "${method}"`);
    const handler = this.handlers[method] as ((p: unknown) => unknown) | undefined;
    if (!handler)
      throw new GatehouseError(
        ErrorCode.MethodNotFound,
        `admin method "${method}" is not available in this build`,
      );
    const parsed = parseParams(adminMethods[method].params, params);
    try {
      const result = await handler(parsed);
      // No transport reports a decision before it is committed.
      await this.engine.work.durable();
      return result;
    } catch (error) {
      // A failed write reads the same on every admin transport (HTTP, IPC, socket).
      throw storageFailure(error) ?? error;
    }
  }

  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    return this.bus.subscribe(listener);
  }

  private coreHandlers(): Partial<Handlers> {
    const e = this.engine;
    const store = e.deps.store;
    const sessionRecords = (rows: ReturnType<typeof store.listSessions>) =>
      rows.map((s) => e.sessions.record(s));
    return {
      status: () => {
        const agents = new Set(
          store.listSessions({ status: 'active', limit: 100000 }).map((s) => s.agent),
        );
        const dashboardUrl = this.runtime.dashboardUrl?.();
        const channels = this.runtime.channelHealth?.();
        // listOpenRequests is the review queue: exactly the requests waiting for you.
        const waiting = store.listOpenRequests();
        return {
          version: this.runtime.version,
          pid: process.pid,
          socketPath: this.runtime.socketPath,
          home: this.runtime.home,
          startedAt: iso(this.runtime.startedAt),
          pending: waiting.length,
          timedOut: waiting.filter((r) => r.status === 'timed_out').length,
          activeSessions: store.listSessions({ status: 'active', limit: 100000 }).length,
          agents: agents.size,
          paused: e.controls.allPaused(),
          ...(dashboardUrl ? { dashboardUrl } : {}),
          ...(channels ? { channels } : {}),
        };
      },
      'pending.list': (p) => ({
        requests: store
          .listOpenRequests()
          .filter((r) => !p.agent || r.agent === p.agent)
          .map(toRequestRecord),
      }),
      'requests.query': (p) => ({ requests: store.queryRequests(p).map(toRequestRecord) }),
      'request.get': (p) => ({ request: toRequestRecord(e.queue.get(p.requestId)) }),
      decide: (p) => {
        const { request, rule, grants } = e.queue.decide(p);
        return { request, ...(rule ? { rule } : {}), ...(grants.length ? { grants } : {}) };
      },
      decideMany: (p) => {
        const { requestIds, ...rest } = p;
        const decided: RequestRecord[] = [];
        const rules: { requestId: string; ruleId: string; description: string }[] = [];
        const failed: { requestId: string; error: string }[] = [];
        for (const requestId of requestIds) {
          try {
            const { request, rule } = e.queue.decide({ ...rest, requestId });
            decided.push(request);
            if (rule) rules.push({ requestId, ...rule });
          } catch (error) {
            failed.push({
              requestId,
              error: error instanceof Error ? error.message : String(error),
            });
          }
        }
        return { decided, failed, ...(rules.length ? { rules } : {}) };
      },
      'agents.list': () => {
        const byAgent = new Map<
          string,
          { sessions: number; connections: number; lastSeen: number }
        >();
        for (const s of store.listSessions({ status: 'all', limit: 5000 })) {
          const a = byAgent.get(s.agent) ?? { sessions: 0, connections: 0, lastSeen: 0 };
          if (s.status === 'active') a.sessions++;
          a.connections += e.sessions.connectionCount(s.sessionId);
          a.lastSeen = Math.max(a.lastSeen, s.lastSeenAt, s.endedAt ?? 0);
          byAgent.set(s.agent, a);
        }
        // An agent paused or killed before it ever connected is listed too: it is held.
        for (const c of store.listControls())
          if (c.agent !== '*' && !byAgent.has(c.agent))
            byAgent.set(c.agent, { sessions: 0, connections: 0, lastSeen: 0 });
        return {
          agents: [...byAgent].map(([agent, a]) => ({
            agent,
            state: e.controls.stateOf(agent),
            sessions: a.sessions,
            connections: a.connections,
            ...(a.lastSeen ? { lastSeenAt: iso(a.lastSeen) } : {}),
          })),
        };
      },
      pause: (p) => this.control(p.agent, 'paused', p.reason),
      resume: (p) => this.control(p.agent, 'resumed', p.reason),
      kill: (p) => this.control(p.agent, 'killed', p.reason),
      'sessions.list': (p) => ({ sessions: sessionRecords(store.listSessions(p)) }),
      'session.get': (p) => {
        const s = e.sessions.get(p.sessionId);
        return {
          session: e.sessions.record(s),
          ...(s.summaryJson ? { summary: JSON.parse(s.summaryJson) } : {}),
          transcript: sessionTranscript(store, s.sessionId),
          requests: store.listSessionRequests(s.sessionId).map(toRequestRecord),
        };
      },
      'session.report': (p) => {
        const s = e.sessions.get(p.sessionId);
        // Trips and mode changes are what a report needs from the audit; the rest is in the
        // transcript and the requests.
        const audit = ['guard.tripped', 'mode.changed']
          .flatMap((type) => store.queryAudit({ type, sessionId: s.sessionId, limit: 1000 }))
          .sort((a, b) => a.seq - b.seq);
        return {
          markdown: buildSessionReport({
            session: e.sessions.record(s),
            ...(s.summaryJson ? { summary: JSON.parse(s.summaryJson) } : {}),
            transcript: sessionTranscript(store, s.sessionId),
            requests: store.listSessionRequests(s.sessionId).map(toRequestRecord),
            audit,
            now: iso(e.deps.clock.now()),
          }),
          filename: `gatehouse-report-${s.sessionId}.md`,
        };
      },
      'audit.query': (p) => {
        const { since, ...rest } = p;
        return {
          events: store.queryAudit({ ...rest, ...(since ? { sinceMs: Date.parse(since) } : {}) }),
        };
      },
      'rules.list': () => ({ rules: [...e.rules.list()] }),
      'rules.add': (p) => {
        const { tier, note, ...draft } = p;
        const matchers = normaliseDraft(draft);
        const rule = e.rules.add(compact({ ...matchers, tier, note, source: 'user' as const }));
        return { rule, description: describeRule(rule) };
      },
      'rules.preview': (p) => {
        const { draft, widenings } = draftLadder(e.queue.get(p.requestId));
        return { draft, widenings, describe: [draft, ...widenings].map(describeRule) };
      },
      'rules.remove': (p) => {
        e.rules.remove(p.ruleId);
        return { removed: true as const };
      },
      'settings.get': (p) => ({
        settings: e.settings.get() as Record<string, unknown>,
        ...(p.key ? { value: e.settings.getKey(p.key) } : {}),
      }),
      'settings.set': (p) => ({
        settings: e.settings.set(p.key, p.value) as Record<string, unknown>,
      }),
    };
  }

  private control(
    agent: string | undefined,
    state: 'paused' | 'resumed' | 'killed',
    reason?: string,
  ) {
    this.engine.controls.set(agent, state, reason);
    return { agents: agent ? [agent] : ['*'], state };
  }
}
