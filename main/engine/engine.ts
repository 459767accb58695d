import type { z } from 'zod';
import { stoppedCheckResult } from '../../shared/protocol/stopped-check';
import type * as A from '../../shared/protocol/agent-methods';
import { PROTOCOL_VERSION, SERVER_NAME } from '../../shared/protocol/constants';
import type { AgentMethod, AgentParsedParams } from '../../shared/protocol/method-map';
import type { Classification } from './policy/classifier';
import type { EngineCore, P } from './engine-core';
import type { AdminApi } from './admin-api';
import type { Clock } from '../../shared/clock';
import type { AgentControls } from './controls/controls';
import type { GuardPort } from './guards/guard-port';
import type { SettingsSource } from './kernel/settings-service';
import type { UnitOfWork, AuditFields } from './kernel/unit-of-work';
import type { PathProtection } from './policy/path-port';
import type { RunInputWatch } from './policy/run-input-watch';
import type { GrantBook } from './requests/grants';
import type { RequestRowsStore } from './requests/requests-store';
import type { ReviewQueue } from './requests/review-queue';
import type { SessionService } from './sessions/sessions';
import type { SessionRowsStore, SessionRow } from './sessions/sessions-store';
import { compact } from './kernel/records';
import type { RequestPictures } from './picture/request-pictures';
import { closesDisk, sdkPictureCall } from './picture/sdk-picture-call';
import { gateToolCall } from './requests/tool-gate';
import { CallNotes } from './requests/call-notes';

/** The identity of an agent connection after `hello`. */
export interface AgentCaller {
  sessionId: string;
  agent: string;
}

/** The agent methods a connection calls after `hello`. */
export type SessionMethod = Exclude<AgentMethod, 'hello'>;

/** The engine call behind each agent method after `hello`, with its parsed params. */
const SESSION_CALLS: {
  [K in SessionMethod]: (e: Engine, c: AgentCaller, p: AgentParsedParams<K>) => unknown;
} = {
  classify: (e, c, p) => e.classify(c, p),
  request: (e, c, p) => e.request(c, p),
  await: (e, c, p) => e.await(c, p),
  cancel: (e, c, p) => e.cancel(c, p),
  log: (e, c, p) => e.log(c, p),
  usage: (e, c, p) => e.usage(c, p),
  check: (e, c, p) => e.check(c, p),
  outcome: (e, c, p) => e.outcome(c, p),
  end: (e, c, p) => e.end(c, p),
  gate: (e, c, p) => e.gate(c, p),
  note: (e, c, p) => e.note(c, p),
};

/** The services the agent side drives, composed by build-engine.ts. */
export interface EngineParts {
  core: EngineCore;
  admin: AdminApi;
  work: UnitOfWork;
  clock: Clock;
  settings: SettingsSource;
  guards: GuardPort;
  sessions: SessionService;
  queue: ReviewQueue;
  controls: AgentControls;
  grants: GrantBook;
  runInputs: RunInputWatch;
  /** The waiting requests, for closing those whose agent is gone for good. */
  openRequests: Pick<RequestRowsStore, 'listOpenRequests'>;
  sessionRows: Pick<SessionRowsStore, 'getSession'>;
  protection?: PathProtection | undefined;
  /** Computes and keeps a filed request's picture; absent, requests carry none. */
  pictures?: RequestPictures | undefined;
  version: string;
}

/**
 * The safety engine: the only writer of state. It has two sides and nothing else public:
 * the agent side (the methods of this class, one per agent method of docs/protocol.md, called
 * after validation) and the admin side, {@link admin} (admin-api.ts), which every admin
 * transport drives. Both run their changes in the engine's own units of work, keep its
 * caches and apply what the guardrails return; the parts they share live in EngineCore.
 */
export class Engine {
  /** The person's side: decisions, controls, status, rules, guards, trust, settings. */
  readonly admin: AdminApi;
  private readonly x: EngineParts;
  /** People's approval notes waiting for their call's result (`gate`'s `keepNote`). */
  private readonly notes: CallNotes;

  constructor(parts: EngineParts) {
    this.x = parts;
    this.notes = new CallNotes(parts.clock);
    this.admin = parts.admin;
  }

  /** Picks up where a previous run stopped: waits' timeouts and abandoned sessions. */
  start(): void {
    this.x.queue.recover();
    this.x.sessions.recover();
  }

  stop(): void {
    this.x.core.stopClassifiedCounts();
    this.x.work.flush();
    this.x.guards.dispose();
    this.x.queue.dispose();
    this.x.sessions.dispose();
  }

  /** Resolves when everything written so far is committed: no answer leaves before. */
  durable(): Promise<void> {
    return this.x.work.durable();
  }

  /** {@link durable} without a promise, for the socket's hot path. */
  whenDurable(fn: () => void, onFail: (error: unknown) => void): void {
    this.x.work.whenDurable(fn, onFail);
  }

  /** Appends one audit entry of a transport's own (a failed `auth`, a throttled one). */
  recordAudit(type: string, fields: AuditFields): void {
    this.x.work.record(type, fields);
  }

  /** A connection of the session opened: it is not abandoned while one is open. */
  attach(sessionId: string): void {
    this.x.sessions.attach(sessionId);
  }

  /** A connection of the session closed: the last one starts the abandon grace period. */
  detach(sessionId: string): void {
    this.x.sessions.detach(sessionId);
  }

  /**
   * One agent call after `hello`. The kill switch's rule holds for every call: a killed
   * agent may only `end` its session, and `check`, which answers `allowed: false` with the
   * reason, as for a paused agent (-32003 for anything else).
   */
  call<K extends SessionMethod>(c: AgentCaller, method: K, params: AgentParsedParams<K>): unknown {
    const controls = this.x.controls;
    if (method !== 'end' && method !== 'check' && controls.stateOf(c.agent) === 'killed')
      controls.assertRunning(c.agent);
    const handler = SESSION_CALLS[method] as (e: Engine, c: AgentCaller, p: unknown) => unknown;
    return this.x.core.inCall(() => handler(this, c, params));
  }

  /**
   * The `control` notification that tells an agent a human holds it (paused or killed), for
   * a connection that says hello while it is held; undefined while it runs.
   */
  controlNotice(agent: string): { state: 'paused' | 'killed'; reason?: string } | undefined {
    const controls = this.x.controls;
    const state = controls.stateOf(agent);
    if (state === 'running') return undefined;
    const reason = controls.reasonOf(agent);
    return { state, ...(reason ? { reason } : {}) };
  }

  /**
   * Closes as `abandoned` the waiting requests whose agent is gone for good: its session
   * ended (or was abandoned) at least `retention.abandonAfterMs` ago and no connection of it
   * is open. Retention runs this; returns how many were closed.
   */
  closeAbandoned(): number {
    const x = this.x;
    const afterMs = x.settings.get().retention.abandonAfterMs;
    if (afterMs <= 0) return 0;
    const now = x.clock.now();
    let closed = 0;
    for (const r of x.openRequests.listOpenRequests()) {
      if (x.sessions.connectionCount(r.sessionId) > 0) continue;
      const s = x.sessionRows.getSession(r.sessionId);
      if (!s || s.status === 'active') continue;
      const goneMs = now - (s.endedAt ?? s.lastSeenAt);
      if (goneMs < afterMs) continue;
      const minutes = Math.round(goneMs / 60_000);
      const reason = `agent gone: its session was ${s.status} ${minutes} min ago and never came back`;
      if (x.queue.abandon(r.requestId, reason)) closed++;
    }
    return closed;
  }

  hello(p: P<'HelloParams'>): { session: SessionRow; result: z.output<typeof A.HelloResult> } {
    const session = this.x.sessions.open(p);
    return this.x.core.inCall(() => ({
      session,
      result: {
        sessionId: session.sessionId,
        protocol: PROTOCOL_VERSION,
        server: { name: SERVER_NAME, version: this.x.version },
        mode: this.x.core.modeOf(session),
      },
    }));
  }

  classify(c: AgentCaller, p: P<'ClassifyParams'>): Classification {
    const x = this.x;
    return x.core.inCall(() => {
      const result = x.core.decideTier(x.sessions.get(c.sessionId), p);
      x.core.recordClassified(c, p.action, result);
      return result;
    });
  }

  request(c: AgentCaller, p: P<'RequestParams'>) {
    const x = this.x;
    x.controls.assertRunning(c.agent);
    const session = x.sessions.get(c.sessionId);
    const answer = x.core.inCall(() => {
      const classified = x.core.classifyForRequest(session, p);
      return x.queue.file(session, p, classified, {
        onFiled: (row) => x.pictures?.filed(row, sdkPictureCall(p, classified, session.project)),
      });
    });
    // An agent of the SDK writes what it was allowed to; a person's approval later is noted
    // where it is decided (EngineCore).
    if (!(answer instanceof Promise) && answer.status === 'approved')
      x.runInputs.noteWrites(session, [p], undefined);
    return answer;
  }

  /** One native tool call relayed by an agent adapter (tool-gate.ts). */
  gate(c: AgentCaller, p: P<'GateParams'>): Promise<z.output<typeof A.GateResult>> {
    // The async function runs to its first `await` (filing the request) inside the call.
    const answer = this.x.core.inCall(() => this.gateIn(c, p));
    if (!p.keepNote) return answer;
    return answer.then((a) => {
      // What the agent runs: the person's edit when they made one. The reason carries the
      // note, in the words the other agents' hooks pass on with the allow.
      if (a.outcome === 'allow' && a.decidedBy === 'human')
        this.notes.keep(c.sessionId, p.tool, a.updatedInput ?? p.input, a.reason);
      return a;
    });
  }

  /** The note of a person's approval of a call that ran, kept by {@link gate}; once. */
  note(c: AgentCaller, p: P<'NoteParams'>): z.output<typeof A.NoteResult> {
    const note = this.notes.take(c.sessionId, p.tool, p.input);
    return note === undefined ? {} : { note };
  }

  private gateIn(c: AgentCaller, p: P<'GateParams'>): Promise<z.output<typeof A.GateResult>> {
    const x = this.x;
    const shell = x.protection?.shell;
    if (!shell) throw new Error('gate needs the shell parser (EngineDeps.protection)');
    return gateToolCall(p, {
      shell,
      check: (tool) => this.check(c, { tool }),
      // Grants are not looked at here: they settle a call only where they are used up.
      classify: (a, cwd, call) => {
        const result = x.core.classifyForRequest(x.sessions.get(c.sessionId), a, cwd, call);
        x.core.recordClassified(c, a.action, result);
        return result;
      },
      log: (type, description, details) =>
        void this.log(c, { type, description, tier: 'auto', details }),
      allowByGrants: (asking, type, description, details, runsIn) =>
        x.core.allowByGrants(
          x.sessions.get(c.sessionId),
          asking,
          { type, description, tier: 'auto', details },
          runsIn,
        ),
      request: (r, cwd, call, parts, editOriginal) => {
        x.controls.assertRunning(c.agent);
        const session = x.sessions.get(c.sessionId);
        const classified = x.core.classifyForRequest(session, r, cwd, call);
        return x.queue.file(session, r, classified, {
          onFiled: (row) =>
            x.pictures?.filed(row, {
              tool: p.tool,
              input: p.input,
              ...(cwd !== undefined ? { cwd } : {}),
              ...(r.command !== undefined ? { command: r.command } : {}),
              ...(p.oversize !== undefined ? { oversize: p.oversize } : {}),
              ...(parts.some((a) => closesDisk(a.rule))
                ? { diskClosed: 'a protected or secret path' }
                : {}),
              actions: [...parts],
            }),
          editOriginal,
          // Where the call runs: a late approval covers it there only, a grant's paths are
          // matched where its words are opened.
          ...x.core.callPlace(session, r, cwd),
        });
      },
      allowed: (actions, cwd) => x.runInputs.noteWrites(x.sessions.get(c.sessionId), actions, cwd),
    });
  }

  await(c: AgentCaller, p: P<'AwaitParams'>) {
    return this.x.queue.await(p.requestId, p.timeoutMs, c.sessionId);
  }

  cancel(c: AgentCaller, p: P<'CancelParams'>): { status: 'cancelled' } {
    this.x.queue.cancel(p.requestId, c.sessionId);
    return { status: 'cancelled' };
  }

  log(c: AgentCaller, p: P<'LogParams'>): { ok: true } {
    const x = this.x;
    const session = x.sessions.get(c.sessionId);
    x.work.run((u) => {
      x.core.recordLog(u, session, p);
      // The protocol has no field for widening a task; a logged scope change is how an
      // agent proposes one, and the run breaker's scope freeze answers it.
      if (p.type === 'scope_change') {
        x.core.applyEffects(
          u,
          session,
          x.guards.proposeScopeChange(x.core.guardContext(session), p.description),
        );
      }
    });
    return { ok: true };
  }

  usage(c: AgentCaller, p: P<'UsageParams'>): z.output<typeof A.UsageResult> {
    const x = this.x;
    x.core.assertCostCeiling('costUsd', p.costUsd);
    const session = x.sessions.get(c.sessionId);
    return x.work.run((u) => {
      const out = x.guards.usage(x.core.guardContext(session), p);
      x.core.applyEffects(u, session, out);
      if (out.costUsd > 0) {
        x.sessions.update(session.sessionId, {
          costUsd: x.sessions.get(session.sessionId).costUsd + out.costUsd,
        });
        x.grants.addSpend(u, session.agent, out.costUsd);
      }
      u.transcript(
        session.sessionId,
        'usage',
        `${p.model}: ${p.inputTokens} in, ${p.outputTokens} out, $${out.costUsd.toFixed(4)}`,
        compact({ model: p.model, costUsd: out.costUsd, phase: p.phase, operation: p.operation }),
      );
      return { costUsd: out.costUsd, spent: out.spent, verdicts: out.verdicts };
    });
  }

  check(c: AgentCaller, p: P<'CheckParams'>): z.output<typeof A.CheckResult> {
    const x = this.x;
    const state = x.controls.stateOf(c.agent);
    if (state !== 'running') {
      const why = x.controls.reasonOf(c.agent);
      return stoppedCheckResult(
        state === 'killed' ? 'AGENT_KILLED' : 'AGENT_PAUSED',
        state === 'killed'
          ? `A human killed this agent${why ? ` (${why})` : ''}: stop and end the session; nothing it asks will be approved.`
          : 'Stop and wait for a human to resume this agent.',
      );
    }
    x.core.assertCostCeiling('estimatedCostUsd', p.estimatedCostUsd);
    const session = x.sessions.get(c.sessionId);
    return x.work.run((u) => {
      const out = x.guards.check(x.core.guardContext(session), p);
      x.core.applyEffects(u, session, out);
      return compact({
        allowed: out.allowed,
        mode: out.mode,
        verdicts: out.verdicts,
        restrictions: out.restrictions,
      });
    });
  }

  outcome(c: AgentCaller, p: P<'OutcomeParams'>): z.output<typeof A.OutcomeResult> {
    const x = this.x;
    const session = x.sessions.get(c.sessionId);
    return x.work.run((u) => {
      const out = x.guards.outcome(x.core.guardContext(session), p);
      x.core.applyEffects(u, session, out);
      const detail = p.message ? ` (${p.message.slice(0, 200)})` : '';
      u.transcript(
        c.sessionId,
        'outcome',
        `${p.ok ? 'Succeeded' : 'Failed'}: ${p.source}${detail}`,
      );
      return { verdicts: out.verdicts };
    });
  }

  end(c: AgentCaller, p: P<'EndParams'>) {
    return { summary: this.x.sessions.end(c.sessionId, p.status) };
  }
}
