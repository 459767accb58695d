import type { GatehouseEvent } from '../../shared/events';
import type { TranscriptEntry } from '../../shared/domain';
import type { Clock } from './clock';
import { iso } from './clock';
import type { EventBus } from './event-bus';
import type { AuditInput, EngineStore } from './store-port';

/** An audit entry as a unit writes it: the time and type come from the unit. */
export type AuditFields = Omit<AuditInput, 'at' | 'type'>;

/** What a state change can do inside its transaction. */
export interface Unit {
  readonly now: number;
  audit(type: string, fields: AuditFields): void;
  /** The audit sequence number for an entry this unit stores elsewhere (see RequestRow). */
  reserveAuditSeq(): number;
  transcript(
    sessionId: string,
    kind: TranscriptEntry['kind'],
    text: string,
    data?: Record<string, unknown>,
  ): void;
  /** Publishes the event after the transaction commits. */
  publish(event: GatehouseEvent): void;
  /** Runs `fn` after the commit (wake waiters, notify agents, write files). */
  afterCommit(fn: () => void): void;
}

/** Schedules the batch commit; `setImmediate` in production, replaceable in tests. */
export type Defer = (fn: () => void) => void;

/**
 * Runs each state change atomically together with its audit entries, and only after the
 * commit publishes its events and runs its follow-ups: nothing leaves the engine before it
 * is durable.
 *
 * Changes made in the same turn of the event loop share one SQLite transaction (group
 * commit): each change is a savepoint inside it, and the batch commits on the next turn.
 * Transports answer only after {@link durable} resolves, so no reply, notification or event
 * ever reports a change that a crash could take back — and the daemon pays for one commit
 * per turn instead of one per call.
 */
export class UnitOfWork {
  private batch?: {
    events: GatehouseEvent[];
    after: (() => void)[];
    waiters: { resolve: () => void; reject: (e: unknown) => void }[];
  };

  constructor(
    private readonly store: EngineStore,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly defer: Defer = (fn) => void setImmediate(fn),
  ) {}

  run<T>(fn: (u: Unit) => T): T {
    const batch = this.openBatch();
    const events: GatehouseEvent[] = [];
    const after: (() => void)[] = [];
    const now = this.clock.now();
    const store = this.store;
    const unit: Unit = {
      now,
      audit: (type, f) => this.appendAudit(now, type, f),
      reserveAuditSeq: () => store.reserveAuditSeq(),
      transcript: (sessionId, kind, text, data) =>
        store.appendTranscript(sessionId, { at: iso(now), kind, text, ...(data ? { data } : {}) }),
      publish: (e) => void events.push(e),
      afterCommit: (f) => void after.push(f),
    };
    const result = store.transaction(() => fn(unit));
    // Only a unit that succeeded contributes its follow-ups.
    batch.events.push(...events);
    batch.after.push(...after);
    return result;
  }

  /**
   * Appends one audit entry as a unit of its own. A single INSERT is atomic by itself, so
   * unlike {@link run} this needs no savepoint (about a fifth of what `classify`, which
   * records one entry per call, cost the engine).
   */
  record(type: string, fields: AuditFields): void {
    this.openBatch();
    this.appendAudit(this.clock.now(), type, fields);
  }

  private appendAudit(at: number, type: string, f: AuditFields): void {
    // A literal of one shape (no spread): this runs for every audited call.
    this.store.appendAudit({
      at,
      type,
      sessionId: f.sessionId,
      agent: f.agent,
      requestId: f.requestId,
      data: f.data,
    });
  }

  /**
   * Runs `fn` once everything written so far is committed (at once when nothing is open),
   * or `onFail` with the error if the commit fails and the batch is rolled back.
   */
  whenDurable(fn: () => void, onFail: (error: unknown) => void): void {
    const batch = this.batch;
    if (!batch) return fn();
    batch.waiters.push({ resolve: fn, reject: onFail });
  }

  /** Resolves when everything written so far is committed. */
  durable(): Promise<void> {
    const batch = this.batch;
    if (!batch) return Promise.resolve();
    return new Promise((resolve, reject) => batch.waiters.push({ resolve, reject }));
  }

  /** Commits the open batch now (shutdown, tests). */
  flush(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    try {
      this.store.commitBatch();
    } catch (error) {
      this.store.rollbackBatch();
      for (const w of batch.waiters) w.reject(error);
      return;
    }
    for (const f of batch.after) {
      try {
        f();
      } catch (error) {
        console.error('gatehouse: follow-up after commit failed:', error);
      }
    }
    for (const e of batch.events) this.bus.publish(e);
    for (const w of batch.waiters) w.resolve();
  }

  private openBatch() {
    if (this.batch) return this.batch;
    this.store.beginBatch();
    this.batch = { events: [], after: [], waiters: [] };
    this.defer(() => this.flush());
    return this.batch;
  }
}
