import type { GatehouseEvent } from '../../shared/events';
import type { TranscriptEntry } from '../../shared/domain';
import type { Clock } from './clock';
import { iso } from './clock';
import type { EventBus } from './event-bus';
import type { AuditInput, EngineStore } from './store-port';

/** What a state change can do inside its transaction. */
export interface Unit {
  readonly now: number;
  audit(type: string, fields: Omit<AuditInput, 'at' | 'type'>): void;
  transcript(sessionId: string, kind: TranscriptEntry['kind'], text: string, data?: Record<string, unknown>): void;
  /** Publishes the event after the transaction commits. */
  publish(event: GatehouseEvent): void;
  /** Runs `fn` after the commit (wake waiters, notify agents, write files). */
  afterCommit(fn: () => void): void;
}

/**
 * Runs one state change as one SQLite transaction together with its audit entries, and
 * only then publishes its events and runs its follow-ups: nothing leaves the engine before
 * it is durable.
 */
export class UnitOfWork {
  constructor(
    private readonly store: EngineStore,
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  run<T>(fn: (u: Unit) => T): T {
    const events: GatehouseEvent[] = [];
    const after: (() => void)[] = [];
    const now = this.clock.now();
    const store = this.store;
    const unit: Unit = {
      now,
      audit: (type, fields) => void store.appendAudit({ at: now, type, ...fields }),
      transcript: (sessionId, kind, text, data) =>
        store.appendTranscript(sessionId, { at: iso(now), kind, text, ...(data ? { data } : {}) }),
      publish: (e) => void events.push(e),
      afterCommit: (f) => void after.push(f),
    };
    const result = store.transaction(() => fn(unit));
    for (const f of after) f();
    for (const e of events) this.bus.publish(e);
    return result;
  }
}
