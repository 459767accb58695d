import type { GatehouseEvent } from '../../../shared/events';
import type { TranscriptEntry } from '../../../shared/domain';
import type { Clock } from '../../../shared/clock';
import { iso } from '../../../shared/clock';
import type { EventBus } from './event-bus';
import type { AuditInput, WorkStore } from './kernel-store';

/** An audit entry as a unit writes it: the time and type come from the unit. */
export type AuditFields = Omit<AuditInput, 'at' | 'type'>;

/** What a state change can do inside its transaction. */
export interface Unit {
  readonly now: number;
  audit(type: string, fields: AuditFields): void;
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

interface Batch {
  events: GatehouseEvent[];
  after: (() => void)[];
  waiters: { resolve: () => void; reject: (e: unknown) => void }[];
}

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
 *
 * Caches follow the database. Services keep in-memory copies of stored state (rules, agent
 * controls, session rows, guard state, settings) and change them inside units, before the
 * commit. When work is rolled back — a unit's function threw and its savepoint is undone, or
 * the batch commit failed and every unit of the batch is undone — each cache registered with
 * {@link onRollback} is rebuilt from the store, which at that moment holds exactly the state
 * that survived (the open batch without the failed unit, or the last commit). Reloading
 * everything rather than undoing each change is the simple design that is obviously correct:
 * no call site has to remember what it touched, and rollbacks are rare, so their cost does not
 * matter. Reloads are registered once per cache, never per unit, to keep the hot path free of
 * closures. Units of one batch may read each other's cached changes before the commit; they
 * share its fate, and no answer leaves before it (see {@link whenDurable}).
 */
export class UnitOfWork {
  private batch?: Batch | undefined;
  private readonly reloads: (() => void)[] = [];
  /** Nesting of {@link run}: only the outermost unit has a savepoint to lose. */
  private depth = 0;

  constructor(
    private readonly store: WorkStore,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly defer: Defer = (fn) => void setImmediate(fn),
  ) {}

  /**
   * Registers a cache's reload, run after any rollback (see the class comment). Register once,
   * at construction. A reload must only read the store, and must not throw.
   */
  onRollback(reload: () => void): void {
    this.reloads.push(reload);
  }

  run<T>(fn: (u: Unit) => T): T {
    const batch = this.openBatch();
    const events: GatehouseEvent[] = [];
    const after: (() => void)[] = [];
    const now = this.clock.now();
    const store = this.store;
    const unit: Unit = {
      now,
      audit: (type, f) => this.appendAudit(now, type, f),
      transcript: (sessionId, kind, text, data) =>
        store.appendTranscript(sessionId, { at: iso(now), kind, text, data }),
      publish: (e) => void events.push(e),
      afterCommit: (f) => void after.push(f),
    };
    let result: T;
    this.depth++;
    try {
      result = store.transaction(() => fn(unit));
    } catch (error) {
      if (this.depth === 1) this.rolledBack(batch, error);
      throw error;
    } finally {
      this.depth--;
    }
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
  record(type: string, fields: AuditFields): number {
    return this.singleWrite(() => this.appendAudit(this.clock.now(), type, fields));
  }

  /**
   * Runs `fn`, which makes at most one write statement (a request settled as it is filed:
   * its row), as a unit of its own. Like {@link record} it needs no savepoint, since a single
   * statement is atomic by itself; `fn` gets the unit's time. Nothing is published and nothing
   * runs after the commit: a change with follow-ups goes through {@link run}.
   */
  runSingleWrite<T>(fn: (now: number) => T): T {
    return this.singleWrite(() => fn(this.clock.now()));
  }

  /**
   * Rewrites the data of an entry written by {@link record} (a folded entry's count, see
   * classify-folding.ts), as a unit of its own like {@link record}; false when it is gone.
   */
  amendAudit(seq: number, data: Record<string, unknown>): boolean {
    return this.singleWrite(() => this.store.updateAuditData(seq, data));
  }

  /** One statement in the open batch, atomic by itself. */
  private singleWrite<T>(write: () => T): T {
    const batch = this.openBatch();
    try {
      return write();
    } catch (error) {
      // A failed statement changes nothing by itself, but SQLite may have dropped the batch.
      if (this.depth === 0 && !this.store.inBatch()) this.rolledBack(batch, error);
      throw error;
    }
  }

  private appendAudit(at: number, type: string, f: AuditFields): number {
    // A literal of one shape (no spread): this runs for every audited call.
    return this.store.appendAudit({
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
    if (this.batch) this.commit(this.batch);
  }

  private commit(batch: Batch): void {
    // A batch that SQLite already dropped (see rolledBack) was settled then.
    if (this.batch !== batch) return;
    this.batch = undefined;
    try {
      this.store.commitBatch();
    } catch (error) {
      this.store.rollbackBatch();
      this.lost(batch, error);
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

  private openBatch(): Batch {
    if (this.batch) return this.batch;
    this.store.beginBatch();
    const batch: Batch = { events: [], after: [], waiters: [] };
    this.batch = batch;
    this.defer(() => this.commit(batch));
    return batch;
  }

  /**
   * A unit failed and its savepoint was rolled back. Some failures (SQLITE_FULL, I/O errors)
   * make SQLite roll back the whole transaction: then every unit of the batch is gone, and
   * the callers waiting for it learn so now rather than from a commit that cannot happen.
   */
  private rolledBack(batch: Batch, error: unknown): void {
    if (this.batch === batch && !this.store.inBatch()) {
      this.batch = undefined;
      this.lost(batch, error);
    } else {
      this.tellWriteFailed(error);
      this.reloadCaches();
    }
  }

  /**
   * Registers a listener told of every write the store refused (the batch or a unit lost):
   * the WAL checkpointer gives space back when the disk is full.
   */
  onWriteFailed(listener: (error: unknown) => void): void {
    this.writeFailed.push(listener);
  }

  private readonly writeFailed: ((error: unknown) => void)[] = [];

  private tellWriteFailed(error: unknown): void {
    for (const listener of this.writeFailed) listener(error);
  }

  /** The batch is rolled back: its events and follow-ups never happen; caches reload. */
  private lost(batch: Batch, error: unknown): void {
    this.tellWriteFailed(error);
    this.reloadCaches();
    for (const w of batch.waiters) w.reject(error);
  }

  private reloadCaches(): void {
    for (const reload of this.reloads) {
      try {
        reload();
      } catch (error) {
        console.error('gatehouse: could not reload a cache after a rollback:', error);
      }
    }
  }
}
