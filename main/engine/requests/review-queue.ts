import type { z } from 'zod';
import { isWaitingForYou, type RequestRecord, type RuleRecord } from '../../../shared/domain';
import type { DecideParams } from '../../../shared/protocol/admin-methods';
import type { RequestParams, RequestResult } from '../../../shared/protocol/agent-methods';
import { ErrorCode, GatehouseError, notFound } from '../../../shared/protocol/errors';
import { draftFor, rememberApproval, type Remembered } from './approval-memory';
import type { Clock, TimerHandle } from '../../../shared/clock';
import { actionFingerprint } from './action-fingerprint';
import type { GrantBook } from './grants';
import type { IdSource } from '../kernel/ids';
import type { Classification } from '../policy/classifier';
import { isProtectedRule } from '../policy/protected-paths';
import { grantsLocked, type CallPlace } from './grant-use';
import {
  decidedByOf,
  decisionOf,
  provenanceOfGrant,
  provenanceOfRequest,
  provenanceOfRule,
  ruleOf,
  type Provenance,
} from '../../../shared/provenance';
import type { AgentNotifier } from '../kernel/ports';
import { compact, toRequestRecord } from '../kernel/records';
import { checkedEdit, type CheckEdit, type EditOriginal } from './edited-call';
import { maskInput } from '../../../shared/request-picture/mask-input';
import { maskSecrets } from '../../../shared/request-picture/mask-secrets';
import type { RequestRowsStore, RequestRow, WaitMark } from './requests-store';
import type { SessionRow } from '../sessions/sessions-store';
import { retryDelayMs, runTimedChange } from '../kernel/timed-change';
import type { Unit, UnitOfWork } from '../kernel/unit-of-work';

type Result = z.infer<typeof RequestResult>;

/** How many recovered waits one turn of the sweep hands a timer (see ReviewQueue.recover). */
const SWEEP_BATCH = 200;

/** A decided request and what its approval remembered (named for the person). */
export interface Decided extends Remembered {
  request: RequestRecord;
}
type Waiter = (r: Result) => void;

/** What settles a new request: its status, the rule behind it, and who decided. */
interface Verdict {
  status: 'approved' | 'denied' | 'pending';
  /** What approved it at once; absent while it waits for a person. */
  by?: Provenance;
  rule: string;
  ruleReason: string;
  message?: string;
  timeoutAt?: number | undefined;
}

export interface ReviewQueueDeps {
  store: RequestRowsStore;
  work: UnitOfWork;
  clock: Clock;
  ids: IdSource;
  grants: GrantBook;
  notifier: AgentNotifier;
  defaultTimeoutMs: () => number;
  /** Requests a session may have waiting for a human (settings `requests.maxQueuedPerSession`). */
  maxQueuedPerSession?: () => number;
  addRule: (u: Unit, rule: Omit<RuleRecord, 'ruleId' | 'createdAt'>) => RuleRecord;
  /** Runs inside the unit of a human decision (the automation ladder learns from it). */
  onHumanDecision?: (u: Unit, r: RequestRow, approved: boolean) => void;
  /** Why an approval of this agent's request is refused now (a paused agent), or undefined. */
  approvalHeld?: (agent: string) => string | undefined;
  /** The automation ladder: may let an ungranted `ask` action through. */
  ladder?: (session: SessionRow, p: z.output<typeof RequestParams>) => Classification | undefined;
  /** Classifies a tool call the person edited before approving it (edited-call.ts). */
  checkEdit?: CheckEdit;
  /**
   * A request of the session now waits for a human: told inside the unit that files it
   * (sessions.ts counts such sessions' requests when their agent disconnects).
   */
  onWaiting?: (sessionId: string) => void;
  /** Words for a timeout's answer: what the request still waits on elsewhere (the hub's quorum). */
  waitNote?: (requestId: string) => string | undefined;
}

/** Gatehouse itself: a kill, an agent's own cancel, retention (see shared/provenance.ts). */
const SYSTEM = decisionOf({ kind: 'system' });

/** The answer an agent gets for a stored request. */
export function resultOf(r: RequestRow | RequestRecord): Result {
  // Fields left undefined are dropped when the answer is serialized.
  return {
    requestId: r.requestId,
    // An abandoned request is, to an agent that comes back after all, a cancelled one.
    status: r.status === 'pending' ? 'queued' : r.status === 'abandoned' ? 'cancelled' : r.status,
    decidedBy: r.decidedBy,
    message: r.message,
    reason: r.reason,
    conditions: r.conditions,
  };
}

/**
 * The review queue: files requests, answers the ones policy or grants decide at once,
 * holds the rest for a human, times waits out, and wakes waiting agents on a decision.
 */
export class ReviewQueue {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly timeouts = new Map<string, TimerHandle>();
  /**
   * The unmasked tool input of each request an agent waits on whose `toolInput` is kept masked
   * (tool-gate.ts): only in memory, only while the agent waits, to complete a person's edit.
   */
  private readonly editOriginals = new Map<string, EditOriginal>();
  /** The timer of the recovered waits' next deadline (see {@link recover}). */
  private sweep: TimerHandle | undefined;
  /** The last recovered wait handed a timer: the sweep goes on after it. */
  private sweepMark: WaitMark | undefined;
  private disposed = false;

  constructor(private readonly d: ReviewQueueDeps) {}

  /**
   * Re-arms the timeouts of waits that were running when Gatehouse stopped, without reading
   * the queue: one timer for the soonest deadline (from the index requests_deadline); when it
   * fires, the waits due are timed out a batch at a time and the timer moves to the next.
   */
  recover(): void {
    this.sweepMark = undefined;
    this.armSweep();
  }

  private armSweep(): void {
    this.sweep?.cancel();
    this.sweep = undefined;
    const next = this.d.store.nextWaitDeadline(this.sweepMark);
    if (next === undefined || this.disposed) return;
    this.sweep = this.d.clock.setTimer(Math.max(0, next - this.d.clock.now()), () =>
      this.sweepDue(),
    );
  }

  /** Times out a batch of due waits (each as its own change), then waits for the next. */
  private sweepDue(): void {
    this.sweep = undefined;
    const due = this.d.store.listDueWaits(this.sweepMark, this.d.clock.now(), SWEEP_BATCH);
    for (const w of due)
      if (!this.timeouts.has(w.requestId)) this.armTimeout(w.requestId, w.timeoutAt);
    if (due.length) this.sweepMark = due[due.length - 1];
    if (due.length === SWEEP_BATCH && !this.disposed)
      // More are due: the next batch after the timers just armed, on a later turn.
      this.sweep = this.d.clock.setTimer(0, () => this.sweepDue());
    else this.armSweep();
  }

  /**
   * Files a request; resolves at once, or when a human decides or the wait times out.
   * `o.runsIn` is where a relayed tool call runs: its "exactly this action" includes the
   * directory (see actionFingerprint), and `o.dirs` are where its words are opened, for a
   * grant's paths; an agent's own `request` has neither.
   */
  file(
    session: SessionRow,
    p: z.output<typeof RequestParams>,
    c: Classification,
    o: {
      onFiled?: ((row: RequestRow) => void) | undefined;
      editOriginal?: EditOriginal | undefined;
    } & CallPlace = {},
  ): Result | Promise<Result> {
    const { onFiled, editOriginal } = o;
    if (p.dedupeKey) {
      const open = this.d.store.findOpenByDedupeKey(session.sessionId, p.dedupeKey);
      if (open) {
        if (!(p.wait && open.status === 'pending')) return resultOf(open);
        // The same call asked again (its tool call id): it waits, so an edit can reach it.
        if (editOriginal && !this.editOriginals.has(open.requestId))
          this.editOriginals.set(open.requestId, editOriginal);
        return this.wait(open.requestId);
      }
    }
    const fingerprint = actionFingerprint(p, o.runsIn);
    // Settled by policy as it is filed: its row is the only write, so it needs no savepoint
    // (about a sixth of an auto-approved request's time in the engine).
    const settled = settledAsFiled(c);
    const result = settled
      ? this.d.work.runSingleWrite((now) => this.fileRow(session, p, c, fingerprint, settled, now))
      : this.d.work.run((u) => {
          const verdict = this.verdictFor(u, session, p, c, fingerprint, o.dirs);
          if (verdict.status === 'pending') this.assertQueueRoom(session);
          const row = this.fileRow(session, p, c, fingerprint, verdict, u.now);
          // The transcript shows this request from the requests table itself (see transcript.ts).
          if (row.status === 'pending') {
            this.d.onWaiting?.(row.sessionId);
            u.publish({ type: 'request.created', request: toRequestRecord(row) });
            // Armed at once: if this unit rolls back, the timer finds no pending request.
            if (row.timeoutAt !== undefined) this.armTimeout(row.requestId, row.timeoutAt);
          }
          return row;
        });
    // After the commit: what runs here (a picture computed from disk) never holds the unit.
    if (result.status === 'pending') onFiled?.(result);
    if (result.status === 'pending' && p.wait) {
      if (editOriginal) this.editOriginals.set(result.requestId, editOriginal);
      return this.wait(result.requestId);
    }
    return resultOf(result);
  }

  /** Stores a new request with its verdict: the request and its `request.filed` audit entry. */
  private fileRow(
    session: SessionRow,
    p: z.output<typeof RequestParams>,
    c: Classification,
    fingerprint: string,
    verdict: Verdict,
    now: number,
  ): RequestRow {
    // One literal of a fixed shape: building the row with compact() and then spreading it
    // made V8 keep every row past the next scavenge (about 0.8 MB promoted per scavenge
    // and 1.5 ms pauses under load). Absent fields are undefined; the store maps them to NULL.
    const row: RequestRow = {
      requestId: this.d.ids('req'),
      sessionId: session.sessionId,
      agent: session.agent,
      project: session.project,
      action: p.action,
      description: p.description,
      rationale: p.rationale,
      urgency: p.urgency,
      target: p.target,
      command: p.command,
      paths: p.paths,
      context: p.context,
      dedupeKey: p.dedupeKey,
      fingerprint,
      status: verdict.status,
      tier: c.tier,
      rule: verdict.rule,
      ruleReason: verdict.ruleReason,
      createdAt: now,
      timeoutAt: verdict.timeoutAt,
      decidedAt: verdict.by === undefined ? undefined : now,
      decidedBy: verdict.by === undefined ? undefined : decidedByOf(verdict.by),
      message: verdict.message,
      // Only a team rule's deny has a reason as it is filed: the agent is told why.
      reason: verdict.status === 'denied' ? verdict.ruleReason : undefined,
    };
    this.d.store.fileRequest(row);
    return row;
  }

  /** A session past its quota of requests waiting for a human gets -32004 (nothing stored). */
  private assertQueueRoom(session: SessionRow): void {
    const max = this.d.maxQueuedPerSession?.();
    if (max === undefined) return;
    const open = this.d.store.countOpenRequests(session.sessionId);
    if (open >= max)
      throw new GatehouseError(
        ErrorCode.RateLimited,
        `rate limited: this session already has ${open} requests waiting for a human (the limit is ${max}, setting requests.maxQueuedPerSession); wait for decisions or cancel some first`,
      );
  }

  /**
   * How a new request is settled at once: policy, a grant or the automation ladder approves
   * it, or it waits for a human (with a deadline when the agent waits).
   */
  private verdictFor(
    u: Unit,
    session: SessionRow,
    p: z.output<typeof RequestParams>,
    c: Classification,
    fingerprint: string,
    dirs: readonly string[] | undefined,
  ): Verdict {
    const settled = settledAsFiled(c);
    if (settled) return settled;
    // A protected action, or a run after its inputs changed, takes only a late approval of
    // this exact action, and no ladder.
    const locked = grantsLocked(c.rule);
    const grant = this.d.grants.consume(u, {
      agent: session.agent,
      sessionId: session.sessionId,
      project: session.project,
      action: p.action,
      fingerprint,
      description: p,
      dirs,
      ...(locked ? { kinds: ['late_approval' as const] } : {}),
    });
    if (grant) {
      const by = provenanceOfGrant(grant);
      return {
        status: 'approved',
        by,
        rule: ruleOf(by),
        ruleReason: c.reason,
        message: `covered by ${grant.kind.replace('_', ' ')} grant ${grant.grantId}`,
      };
    }
    const ladder = locked ? undefined : this.d.ladder?.(session, p);
    if (ladder)
      return {
        status: 'approved',
        by: provenanceOfRule(ladder.rule),
        rule: ladder.rule,
        ruleReason: ladder.reason,
      };
    return {
      status: 'pending',
      rule: c.rule,
      ruleReason: c.reason,
      timeoutAt: p.wait ? u.now + (p.timeoutMs ?? this.d.defaultTimeoutMs()) : undefined,
    };
  }

  /**
   * Waits for a decision; with `timeoutMs`, answers `pending` when none came in time. With
   * `sessionId`, only the session that filed the request may wait on it: an agent name is
   * self-declared, a session is not.
   */
  await(requestId: string, timeoutMs?: number, sessionId?: string): Result | Promise<Result> {
    const r = this.get(requestId);
    if (sessionId !== undefined && r.sessionId !== sessionId)
      throw notFound(`request ${requestId}`);
    if (r.status !== 'pending') return resultOf(r);
    const waiting = this.wait(requestId);
    if (timeoutMs === undefined) return waiting;
    return new Promise<Result>((resolve) => {
      const timer = this.d.clock.setTimer(timeoutMs, () => {
        this.waiters.get(requestId)?.delete(onDecision);
        resolve({ requestId, status: 'pending' });
      });
      const onDecision: Waiter = (res) => {
        timer.cancel();
        resolve(res);
      };
      this.addWaiter(requestId, onDecision);
    });
  }

  /** Cancels a request; only the session that filed it may (others get not found). */
  cancel(requestId: string, sessionId: string): void {
    // Checked before the unit, not inside it: an agent's wrong id must not cost a rollback,
    // which reloads every cache (see UnitOfWork). Nothing runs in between.
    const r = this.get(requestId);
    if (r.sessionId !== sessionId) throw notFound(`request ${requestId}`);
    if (!isWaitingForYou(r.status)) {
      throw new GatehouseError(
        ErrorCode.InvalidParams,
        `request ${requestId} is already ${r.status}`,
      );
    }
    this.d.work.run((u) => {
      const patch = {
        status: 'cancelled' as const,
        decidedAt: u.now,
        ...SYSTEM,
      };
      this.d.store.updateRequest(requestId, patch);
      u.audit('request.cancelled', { sessionId: r.sessionId, agent: r.agent, requestId, data: {} });
      u.transcript(r.sessionId, 'decision', `Cancelled: ${r.description}`, { requestId });
      const updated = { ...r, ...patch };
      u.publish({ type: 'request.cancelled', request: toRequestRecord(updated) });
      u.afterCommit(() => this.settle(requestId, resultOf(updated)));
    });
  }

  /**
   * A human's decision. Approving a timed-out request leaves a one-time grant for it; a
   * session, envelope or "always" approval remembers the rule draft (see approval-memory.ts).
   */
  decide(p: z.output<typeof DecideParams>): Decided {
    return this.d.work.run((u) => {
      const r = this.get(p.requestId);
      if (!isWaitingForYou(r.status)) {
        throw new GatehouseError(
          ErrorCode.InvalidParams,
          `request ${p.requestId} is already ${r.status}${r.reason && provenanceOfRequest(r)?.kind === 'system' ? `: ${r.reason}` : ''}`,
        );
      }
      const approve = p.decision === 'approve';
      // A paused agent's requests are held: an approval would let it act while stopped.
      const held = approve ? this.d.approvalHeld?.(r.agent) : undefined;
      if (held) throw new GatehouseError(ErrorCode.AgentPaused, held);
      if (
        approve &&
        isProtectedRule(r.rule) &&
        (p.scope === 'session' || p.scope === 'always' || p.envelope)
      )
        throw new GatehouseError(
          ErrorCode.InvalidParams,
          `request ${r.requestId} touches Gatehouse's own files or policy (${r.rule}): approve it once only, not for the session, always or with an envelope`,
        );
      // Checked before anything is written: a draft that does not cover the request is -32602,
      // and so is an edit that cannot reach the agent or is riskier than confirmed.
      const draft = draftFor(r, p);
      const edited = checkedEdit(
        r,
        p,
        (this.waiters.get(r.requestId)?.size ?? 0) > 0,
        this.d.checkEdit,
        this.editOriginals.get(r.requestId),
      );
      const patch: Partial<RequestRow> = compact({
        status: approve ? ('approved' as const) : ('denied' as const),
        decidedAt: u.now,
        ...decisionOf({ kind: 'person', via: p.via }),
        scope: approve ? p.scope : undefined,
        // The agent reads why its call changed; the person's own message comes first.
        message: edited
          ? `${p.message ? `${p.message} — ` : ''}the person edited the call before approving it`
          : p.message,
        reason: p.reason,
        conditions: p.conditions,
      });
      this.d.store.updateRequest(r.requestId, patch);
      const remembered: Remembered = approve
        ? rememberApproval(this.d, u, r, p, draft)
        : { grants: [] };
      const extras = compact({
        grants: remembered.grants.length ? remembered.grants : undefined,
        rule: remembered.rule?.ruleId,
        ruleDescription: remembered.rule?.description,
      });
      this.d.onHumanDecision?.(u, r, approve);
      u.audit(approve ? 'request.approved' : 'request.denied', {
        sessionId: r.sessionId,
        agent: r.agent,
        requestId: r.requestId,
        data: compact({
          scope: patch.scope,
          message: p.message,
          reason: p.reason,
          conditions: p.conditions,
          wasTimedOut: r.status === 'timed_out' || undefined,
          via: p.via,
          // Both versions: what the agent asked and what was approved.
          edited:
            edited && p.edit
              ? {
                  // The call's own input when it was kept (a file write's content, an MCP
                  // call's arguments), else its command or target.
                  asked:
                    r.command !== undefined
                      ? maskSecrets(r.command, { shell: true })
                      : (r.context?.toolInput ?? r.target ?? r.description),
                  // Masked as the request's own copy is: the audit is read like the request.
                  approved: maskInput(edited.input),
                  action: edited.action,
                  rule: edited.rule,
                  risk: edited.risk,
                  riskier: edited.riskier,
                }
              : undefined,
          ...extras,
        }),
      });
      u.transcript(
        r.sessionId,
        'decision',
        `${approve ? 'Approved' : 'Denied'}: ${r.description}${p.reason ? ` (${p.reason})` : ''}`,
        { requestId: r.requestId },
      );
      const updated = { ...r, ...patch };
      const rec = toRequestRecord(updated);
      u.publish({ type: 'request.decided', request: rec });
      // An agent blocked in `request` gets the answer there; others get a notification.
      const notify = r.status === 'timed_out' || !this.waiters.get(r.requestId)?.size;
      u.afterCommit(() => {
        this.settle(
          r.requestId,
          edited ? { ...resultOf(updated), updatedInput: edited.input } : resultOf(updated),
        );
        if (!notify) return;
        this.d.notifier.toSession(
          rec.sessionId,
          'decision',
          compact({
            requestId: rec.requestId,
            status: rec.status,
            decidedBy: rec.decidedBy,
            message: rec.message,
            reason: rec.reason,
            conditions: rec.conditions,
          }),
        );
      });
      return { request: rec, ...remembered };
    });
  }

  /**
   * Cancels every request of `agent` (all agents when undefined) still waiting for a human,
   * inside the unit that kills it: nothing can release them later. The agent is told as it
   * would be of a decision (in its waiting call, else a `decision` notification).
   */
  cancelOpenOf(u: Unit, agent: string | undefined, reason: string): void {
    for (const r of this.d.store.listOpenRequests()) {
      if (agent !== undefined && r.agent !== agent) continue;
      const patch = {
        status: 'cancelled' as const,
        decidedAt: u.now,
        ...SYSTEM,
        reason,
      };
      this.d.store.updateRequest(r.requestId, patch);
      u.audit('request.cancelled', {
        sessionId: r.sessionId,
        agent: r.agent,
        requestId: r.requestId,
        data: { reason },
      });
      u.transcript(r.sessionId, 'decision', `Cancelled (${reason}): ${r.description}`, {
        requestId: r.requestId,
      });
      const updated = { ...r, ...patch };
      u.publish({ type: 'request.cancelled', request: toRequestRecord(updated) });
      const notify = r.status === 'timed_out' || !this.waiters.get(r.requestId)?.size;
      u.afterCommit(() => {
        this.settle(r.requestId, resultOf(updated));
        if (notify)
          this.d.notifier.toSession(r.sessionId, 'decision', {
            requestId: r.requestId,
            status: 'cancelled',
            ...SYSTEM,
            reason,
          });
      });
    }
  }

  /**
   * Closes a waiting request whose agent is gone for good (retention, `abandonAfterMs`): it
   * leaves the queue as `abandoned`, so nobody decides it in vain.
   */
  abandon(requestId: string, reason: string): boolean {
    return this.d.work.run((u) => {
      const r = this.d.store.getRequest(requestId);
      if (!r || !isWaitingForYou(r.status)) return false;
      const patch = {
        status: 'abandoned' as const,
        decidedAt: u.now,
        ...SYSTEM,
        reason,
      };
      this.d.store.updateRequest(requestId, patch);
      u.audit('request.abandoned', {
        sessionId: r.sessionId,
        agent: r.agent,
        requestId,
        data: { reason },
      });
      u.transcript(r.sessionId, 'decision', `Abandoned (${reason}): ${r.description}`, {
        requestId,
      });
      const updated = { ...r, ...patch };
      u.publish({ type: 'request.cancelled', request: toRequestRecord(updated) });
      u.afterCommit(() => this.settle(requestId, resultOf(updated)));
      return true;
    });
  }

  /** How many agent calls are blocked right now waiting for this request's decision. */
  waitingCount(requestId: string): number {
    return this.waiters.get(requestId)?.size ?? 0;
  }

  get(requestId: string): RequestRow {
    const r = this.d.store.getRequest(requestId);
    if (!r) throw notFound(`request ${requestId}`);
    return r;
  }

  /** A wait's deadline passed; retried with back-off until its write succeeds. */
  private timeOut(requestId: string, attempt: number): void {
    this.timeouts.delete(requestId);
    runTimedChange(
      this.d.work,
      () => this.markTimedOut(requestId),
      (error) => {
        console.error(`gatehouse: could not time out ${requestId}; will try again:`, error);
        this.armTimeout(requestId, this.d.clock.now() + retryDelayMs(attempt), attempt + 1);
      },
    );
  }

  private markTimedOut(requestId: string): void {
    this.d.work.run((u) => {
      const r = this.d.store.getRequest(requestId);
      if (r?.status !== 'pending') return;
      this.d.store.updateRequest(requestId, { status: 'timed_out' });
      u.audit('request.timed_out', {
        sessionId: r.sessionId,
        agent: r.agent,
        requestId,
        data: { waitedMs: u.now - r.createdAt },
      });
      u.transcript(r.sessionId, 'decision', `Timed out waiting for a human: ${r.description}`, {
        requestId,
      });
      const updated = { ...r, status: 'timed_out' as const };
      u.publish({ type: 'request.timed_out', request: toRequestRecord(updated) });
      const note = this.d.waitNote?.(requestId);
      u.afterCommit(() =>
        this.settle(requestId, { ...resultOf(updated), ...(note ? { message: note } : {}) }),
      );
    });
  }

  private armTimeout(requestId: string, at: number, attempt = 0): void {
    this.timeouts.get(requestId)?.cancel();
    this.timeouts.set(
      requestId,
      this.d.clock.setTimer(at - this.d.clock.now(), () => this.timeOut(requestId, attempt)),
    );
  }

  private wait(requestId: string): Promise<Result> {
    return new Promise((resolve) => this.addWaiter(requestId, resolve));
  }

  private addWaiter(requestId: string, w: Waiter): void {
    let set = this.waiters.get(requestId);
    if (!set) this.waiters.set(requestId, (set = new Set()));
    set.add(w);
  }

  private settle(requestId: string, result: Result): void {
    if (result.status !== 'timed_out') {
      this.timeouts.get(requestId)?.cancel();
      this.timeouts.delete(requestId);
    }
    const set = this.waiters.get(requestId);
    this.waiters.delete(requestId);
    this.editOriginals.delete(requestId);
    for (const w of set ?? []) w(result);
  }

  dispose(): void {
    this.disposed = true;
    this.sweep?.cancel();
    this.sweep = undefined;
    for (const t of this.timeouts.values()) t.cancel();
    this.timeouts.clear();
  }
}

/**
 * The verdict of a request that policy settles as it is filed, with no write but its row: a
 * team rule's deny (for nobody to approve) or the auto tier; undefined for any other.
 */
function settledAsFiled(c: Classification): Verdict | undefined {
  if (c.deny)
    return { status: 'denied', by: provenanceOfRule(c.rule), rule: c.rule, ruleReason: c.reason };
  if (c.tier === 'auto')
    return { status: 'approved', by: provenanceOfRule(c.rule), rule: c.rule, ruleReason: c.reason };
  return undefined;
}
