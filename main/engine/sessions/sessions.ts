import type { GatehouseEvent } from '../../../shared/events';
import type { z } from 'zod';
import type { SessionRecord, SessionSummary } from '../../../shared/domain';
import type { EndParams, HelloParams } from '../../../shared/protocol/agent-methods';
import { notFound } from '../../../shared/protocol/errors';
import type { Clock, TimerHandle } from '../../../shared/clock';
import { iso } from '../../../shared/clock';
import type { IdSource } from '../kernel/ids';
import type { TranscriptArchive } from '../kernel/ports';
import { compact, toSessionRecord } from '../kernel/records';
import type { SessionsStore, SessionRow } from './sessions-store';
import { buildSummary, SUMMARY_MAX_ITEMS } from './summary';
import { archivedSession } from './transcript';
import { retryDelayMs, runTimedChange } from '../kernel/timed-change';
import type { Unit, UnitOfWork } from '../kernel/unit-of-work';

/**
 * How stale a session's stored last-seen time may be while its agent is calling: it says when
 * the agent was last heard from (the agents list, when a gone agent's waits are closed), for
 * which a second is exact enough.
 */
export const LAST_SEEN_GRAIN_MS = 1000;

export interface SessionServiceDeps {
  store: SessionsStore;
  work: UnitOfWork;
  clock: Clock;
  ids: IdSource;
  archive: TranscriptArchive;
  graceMs: () => number;
  /** Spend of a session as the guards see it, for the summary. */
  spend: (s: SessionRow) => { costUsd: number; budgetRemainingPct?: number | undefined };
  /**
   * Lines for the summary about rule suggestions an approval in this session contributed to
   * (rule-suggestions.ts); asked only when a person approved something in the session.
   */
  suggestionsFor?: (sessionId: string) => string[];
  /** The root of the project a directory is in (project-policy.ts); absent, the directory. */
  projectRoot?: ((dir: string) => string) | undefined;
  /** Runs inside the unit that ends a session (the guards count the run). */
  onEnded?: (u: Unit, s: SessionRow, status: SessionRow['status']) => void;
  /**
   * Says that a session's last connection closed, or a first one opened again (not a state
   * change: nothing is stored, so it goes straight to the event bus).
   */
  publish?: (event: GatehouseEvent) => void;
}

/** A session's grace period: its timer fires at `firesAt`, the period ends at `due`. */
interface GraceTimer {
  timer: TimerHandle;
  firesAt: number;
  due: number;
  /** Failed attempts to end the session so far (its back-off). */
  attempt: number;
}

/**
 * Agent sessions: opened or resumed by `hello`, closed by `end` or by the last connection
 * dropping for longer than the grace period. Connection counts live in memory: after a
 * restart every session starts with none, and the grace timer closes those whose agents
 * never come back.
 */
export class SessionService {
  private readonly connections = new Map<string, number>();
  /** The grace period of each session whose last connection closed (see {@link armGrace}). */
  private readonly graceTimers = new Map<string, GraceTimer>();
  private disposed = false;
  /** Rows of sessions read or written lately; every agent call needs its session. */
  private readonly cache = new Map<string, SessionRow>();
  /**
   * The session id of each (agent, session key) said hello with lately: a hook says hello on
   * every tool call. Served only while the cached row is active (see {@link findByKey}).
   */
  private readonly idsByKey = new Map<string, string>();
  /**
   * Sessions that may have requests waiting for a human: every session that filed one that
   * waits, and those that had some when they were first asked about. A session not in it has
   * none, so a hook's disconnect asks the store nothing; one in it is counted in SQL.
   */
  private waiting: Set<string> | undefined;

  constructor(private readonly d: SessionServiceDeps) {
    // Rows are read back lazily, so forgetting them is the reload.
    d.work.onRollback(() => {
      this.cache.clear();
      this.idsByKey.clear();
      this.waiting = undefined;
    });
  }

  /** Arms grace timers for sessions left active by a previous run. */
  recover(): void {
    for (const s of this.d.store.listSessions({ status: 'active', limit: 100000 }))
      this.armGrace(s.sessionId);
  }

  open(hello: z.output<typeof HelloParams>): SessionRow {
    // The agent names its working directory; its session is in the project at that
    // directory's root, so a `cd sub` does not leave the project's policy behind.
    const root = hello.project === undefined ? undefined : this.d.projectRoot?.(hello.project);
    const params = root === undefined ? hello : { ...hello, project: root };
    const existing = params.sessionKey
      ? this.findByKey(params.agent, params.sessionKey)
      : undefined;
    // An agent hook says hello on every tool call. When that is its active session going on
    // in the same project, only the last-seen time would change: it is written at most once
    // per LAST_SEEN_GRAIN_MS, so a burst of tool calls does not write (and commit) a row each.
    if (
      existing?.status === 'active' &&
      !(params.project && params.project !== existing.project) &&
      this.d.clock.now() - existing.lastSeenAt < LAST_SEEN_GRAIN_MS
    )
      return existing;
    return this.d.work.run((u) => {
      if (existing) {
        const resumed: Partial<SessionRow> = { lastSeenAt: u.now };
        const wasActive = existing.status === 'active';
        if (!wasActive)
          Object.assign(resumed, { status: 'active', endedAt: undefined, summaryJson: undefined });
        const movedProject = !!params.project && params.project !== existing.project;
        if (movedProject) resumed.project = params.project;
        this.update(existing.sessionId, resumed);
        // An agent hook connects once per tool call, saying hello to its active session each
        // time: that is the session going on, not resuming. Only a session that had ended, or
        // that moved to another project, is recorded as resumed, so a thousand tool calls do
        // not leave a thousand "Session resumed" lines in the person's audit log and transcript.
        if (wasActive && !movedProject) return { ...existing, ...resumed };
        u.audit('session.resumed', {
          sessionId: existing.sessionId,
          agent: params.agent,
          data: { sessionKey: params.sessionKey },
        });
        u.transcript(existing.sessionId, 'session', 'Session resumed');
        return { ...existing, ...resumed };
      }
      const row: SessionRow = compact({
        sessionId: this.d.ids('ses'),
        agent: params.agent,
        sessionKey: params.sessionKey,
        project: params.project,
        labels: params.labels,
        status: 'active' as const,
        startedAt: u.now,
        lastSeenAt: u.now,
        costUsd: 0,
      });
      this.d.store.insertSession(row);
      this.remember(row);
      u.audit('session.started', {
        sessionId: row.sessionId,
        agent: row.agent,
        data: compact({ sessionKey: row.sessionKey, project: row.project }),
      });
      u.transcript(
        row.sessionId,
        'session',
        `Session started by ${row.agent}${row.project ? ` in ${row.project}` : ''}`,
      );
      u.publish({ type: 'session.started', session: toSessionRecord(row, 1) });
      return row;
    });
  }

  attach(sessionId: string): void {
    const before = this.connections.get(sessionId) ?? 0;
    this.connections.set(sessionId, before + 1);
    // The grace timer, if any, stays armed: when it fires it finds the connection and stops
    // (see armGrace). A hook attaches and detaches on every tool call.
    // Only a session announced gone is announced back: a hook's hello on every tool call
    // costs no query here.
    if (before === 0 && this.announcedGone.delete(sessionId))
      this.connectionChanged(sessionId, true);
  }

  detach(sessionId: string): void {
    if (this.disposed) return;
    const left = (this.connections.get(sessionId) ?? 1) - 1;
    if (left > 0) return void this.connections.set(sessionId, left);
    this.connections.delete(sessionId);
    const s = this.current(sessionId);
    if (s?.status === 'active') this.armGrace(sessionId);
    this.connectionChanged(sessionId, false, s);
  }

  /**
   * A request of the session now waits for a human (the review queue files it); called
   * inside the unit that files it, so a disconnect in the same turn already counts it.
   */
  requestWaiting(sessionId: string): void {
    this.waitingSessions().add(sessionId);
  }

  /** Sessions whose last connection was announced closed, until one comes back. */
  private readonly announcedGone = new Set<string>();

  /** The dashboard and tray show whether an asking agent is still there. */
  private connectionChanged(sessionId: string, connected: boolean, row?: SessionRow): void {
    const publish = this.d.publish;
    if (!publish) return;
    // Only a session with requests in the queue changes what a person sees: a hook connects
    // and leaves on every tool call, and a tray or dashboard must not reload for each.
    if (!connected && !this.hasWaitingRequests(sessionId)) return;
    const s = row ?? this.current(sessionId);
    if (!s) return;
    if (!connected) this.announcedGone.add(sessionId);
    publish({ type: 'session.connection', sessionId, agent: s.agent, connected });
  }

  /** The sessions with a connection open now. */
  connectedSessionIds(): string[] {
    return [...this.connections.keys()];
  }

  connectionCount(sessionId: string): number {
    return this.connections.get(sessionId) ?? 0;
  }

  get(sessionId: string): SessionRow {
    const cached = this.cache.get(sessionId);
    if (cached) return cached;
    const s = this.d.store.getSession(sessionId);
    if (!s) throw notFound(`session ${sessionId}`);
    this.remember(s);
    return s;
  }

  /**
   * The session's row as stored now, or undefined when there is none. The cached row is
   * current while the session is active: only this service changes an active session's row,
   * through {@link update}, and retention deletes only sessions that ended.
   */
  private current(sessionId: string): SessionRow | undefined {
    const cached = this.cache.get(sessionId);
    if (cached?.status === 'active') return cached;
    const s = this.d.store.getSession(sessionId);
    if (s) this.remember(s);
    return s;
  }

  /** The agent's session of a session key, from the cache while it is active (see {@link current}). */
  private findByKey(agent: string, sessionKey: string): SessionRow | undefined {
    const key = `${agent}\u0000${sessionKey}`;
    const id = this.idsByKey.get(key);
    const cached = id === undefined ? undefined : this.cache.get(id);
    if (cached?.status === 'active') return cached;
    const s = this.d.store.findSessionByKey(agent, sessionKey);
    if (s) this.remember(s);
    return s;
  }

  private remember(s: SessionRow): void {
    if (this.cache.size > 10_000) {
      this.cache.clear();
      this.idsByKey.clear();
    }
    this.cache.set(s.sessionId, s);
    if (s.sessionKey !== undefined)
      this.idsByKey.set(`${s.agent}\u0000${s.sessionKey}`, s.sessionId);
  }

  /** Whether requests of the session wait for a human; counted in SQL only when they may. */
  private hasWaitingRequests(sessionId: string): boolean {
    const waiting = this.waitingSessions();
    if (!waiting.has(sessionId)) return false;
    if (this.d.store.countOpenRequests(sessionId) > 0) return true;
    // Undone by a rollback's reload if the change that settled them is undone.
    waiting.delete(sessionId);
    return false;
  }

  private waitingSessions(): Set<string> {
    return (this.waiting ??= new Set(this.d.store.sessionsWithOpenRequests()));
  }

  /** Writes a change to a session; the caller runs inside a unit of work. */
  update(sessionId: string, patch: Partial<SessionRow>): void {
    this.d.store.updateSession(sessionId, patch);
    const cached = this.cache.get(sessionId);
    if (cached) this.cache.set(sessionId, { ...cached, ...patch });
  }

  record(s: SessionRow): SessionRecord {
    return toSessionRecord(s, this.connectionCount(s.sessionId));
  }

  /** Closes a session, writes its transcript file and returns its summary. */
  end(
    sessionId: string,
    status: z.output<typeof EndParams>['status'] | 'abandoned',
  ): SessionSummary {
    this.graceTimers.get(sessionId)?.timer.cancel();
    this.graceTimers.delete(sessionId);
    return this.d.work.run((u) => {
      const s = this.get(sessionId);
      u.transcript(sessionId, 'session', `Session ended: ${status}`);
      const spend = this.d.spend(s);
      // Counted and listed in SQL, a few hundred rows at most: ending a session of a hundred
      // thousand requests does not read them inside the write.
      const facts = this.d.store.sessionSummaryFacts(sessionId, SUMMARY_MAX_ITEMS);
      const summary = buildSummary({
        sessionId,
        agent: s.agent,
        status,
        startedAt: iso(s.startedAt),
        endedAt: iso(u.now),
        facts,
        costUsd: spend.costUsd,
        budgetRemainingPct: spend.budgetRemainingPct,
        suggestions: facts.humanApproved ? this.d.suggestionsFor?.(sessionId) : undefined,
      });
      const patch: Partial<SessionRow> = {
        status,
        endedAt: u.now,
        costUsd: spend.costUsd,
        summaryJson: JSON.stringify(summary),
      };
      this.update(sessionId, patch);
      this.d.onEnded?.(u, s, status);
      u.audit('session.ended', {
        sessionId,
        agent: s.agent,
        data: { status, costUsd: spend.costUsd, needsReview: summary.needsReviewTotal },
      });
      const record = this.record({ ...s, ...patch });
      // Owed until the file is in place: a crash before that leaves the debt for the next start.
      this.d.store.oweTranscriptFile(sessionId, this.connectionCount(sessionId));
      u.publish({ type: 'session.ended', session: record, summary });
      // session.ended tells the views now; forgetting it here keeps the set to live sessions.
      u.afterCommit(() => void this.announcedGone.delete(sessionId));
      // The file is the whole session, read once the end is committed, a page per turn.
      u.afterCommit(
        () => void this.d.archive.write(archivedSession(this.d.store, record, summary)),
      );
      return summary;
    });
  }

  /**
   * Ends the session as abandoned `delayMs` from now unless an agent attaches; retried with
   * back-off until its write succeeds. A timer already armed is moved, not replaced: when it
   * fires before the new time it arms itself again for the rest, so a hook's connection per
   * tool call costs no timer of its own.
   */
  private armGrace(sessionId: string, delayMs = this.d.graceMs(), attempt = 0): void {
    if (this.disposed) return;
    const due = this.d.clock.now() + delayMs;
    const armed = this.graceTimers.get(sessionId);
    if (armed && armed.firesAt <= due) {
      armed.due = due;
      armed.attempt = attempt;
      return;
    }
    armed?.timer.cancel();
    const grace: GraceTimer = {
      due,
      firesAt: due,
      attempt,
      timer: this.d.clock.setTimer(delayMs, () => this.graceOver(sessionId, grace)),
    };
    this.graceTimers.set(sessionId, grace);
  }

  private graceOver(sessionId: string, grace: GraceTimer): void {
    if (this.graceTimers.get(sessionId) !== grace) return;
    this.graceTimers.delete(sessionId);
    // An agent came back: the next time its last connection closes arms a new period.
    if (this.connectionCount(sessionId) > 0) return;
    const rest = grace.due - this.d.clock.now();
    if (rest > 0) return this.armGrace(sessionId, rest, grace.attempt);
    const s = this.d.store.getSession(sessionId);
    if (s?.status !== 'active') return;
    const attempt = grace.attempt;
    runTimedChange(
      this.d.work,
      () => this.end(sessionId, 'abandoned'),
      (error) => {
        console.error(`gatehouse: could not end session ${sessionId}; will try again:`, error);
        this.armGrace(sessionId, retryDelayMs(attempt), attempt + 1);
      },
    );
  }

  /** Stops all timers (daemon shutdown). */
  dispose(): void {
    this.disposed = true;
    for (const g of this.graceTimers.values()) g.timer.cancel();
    this.graceTimers.clear();
  }
}
