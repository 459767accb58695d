import type { Clock } from '../../../shared/clock';
import { iso } from '../../../shared/clock';
import type { UnitOfWork } from '../kernel/unit-of-work';

/** What an `action.classified` entry records. */
export interface ClassifiedData {
  action: string;
  tier: string;
  rule: string;
}

interface OpenFold {
  seq: number;
  firstAt: number;
  /** `firstAt` as written in the entry, formatted once. */
  firstAtIso: string;
  lastAt: number;
  count: number;
}

/** Past this many open folds, the expired ones are dropped (a bound on memory). */
const SWEEP_AT = 4096;

/**
 * Folds a chatty hook's `classify` calls into few audit entries: an identical
 * classification (same action, tier and rule) from the same session within `windowMs` of
 * the entry's first call is counted into that entry — `count`, `firstAt`, `lastAt` in its
 * data — instead of adding a row. Only `action.classified` passes through here: a decision,
 * a request or anything else a person did is always an entry of its own.
 *
 * The entry is rewritten in the engine's batch like any audit write. Folds are forgotten
 * after any rollback (the entry may be gone) and a rewrite that finds no entry (rolled back,
 * pruned) starts a new one, so a count is never lost.
 */
export class ClassifyAuditFolder {
  private readonly open = new Map<string, OpenFold>();

  constructor(
    private readonly work: UnitOfWork,
    private readonly clock: Clock,
    private readonly windowMs: () => number,
  ) {
    work.onRollback(() => this.open.clear());
  }

  record(who: { sessionId: string; agent: string }, data: ClassifiedData): void {
    const windowMs = this.windowMs();
    const now = this.clock.now();
    const key = `${who.sessionId}\n${data.action}\n${data.tier}\n${data.rule}`;
    const fold = windowMs > 0 ? this.open.get(key) : undefined;
    if (fold && now >= fold.lastAt && now - fold.firstAt < windowMs) {
      const folded = {
        ...data,
        count: fold.count + 1,
        firstAt: fold.firstAtIso,
        lastAt: iso(now),
      };
      if (this.work.amendAudit(fold.seq, folded)) {
        fold.count++;
        fold.lastAt = now;
        return;
      }
    }
    const seq = this.work.record('action.classified', {
      sessionId: who.sessionId,
      agent: who.agent,
      data: { ...data },
    });
    if (windowMs <= 0) return;
    if (this.open.size >= SWEEP_AT) this.sweep(now, windowMs);
    this.open.set(key, { seq, firstAt: now, firstAtIso: iso(now), lastAt: now, count: 1 });
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, fold] of this.open) if (now - fold.firstAt >= windowMs) this.open.delete(key);
    // Still full: many sessions at once; forgetting a fold only costs a row.
    if (this.open.size >= SWEEP_AT) this.open.clear();
  }
}
