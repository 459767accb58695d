import type { Clock, TimerHandle } from '../../../shared/clock';
import { iso } from '../../../shared/clock';
import type { UnitOfWork } from '../kernel/unit-of-work';

/** What an `action.classified` entry records. */
export interface ClassifiedData {
  action: string;
  tier: string;
  rule: string;
}

interface OpenFold {
  who: { sessionId: string; agent: string };
  data: ClassifiedData;
  seq: number;
  firstAt: number;
  /** `firstAt` as written in the entry, formatted once. */
  firstAtIso: string;
  lastAt: number;
  /** Calls counted into this fold. */
  count: number;
  /**
   * Calls the stored entry holds, as far as we know: the count last written. After a
   * rollback nothing is known (0): the next write says the whole count again.
   */
  stored: number;
}

/** Past this many open folds, the expired ones are dropped (a bound on memory). */
const SWEEP_AT = 4096;

/**
 * How long a repeat's count may stay in memory before it is written. Well under the audit
 * sealer's margin (an entry is chained `classifyFoldMs` + 1 s after it was written), so a
 * fold's last count is in its entry before the entry is chained.
 */
export const FOLD_WRITE_MS = 250;

/**
 * Folds a chatty hook's `classify` calls into few audit entries: an identical
 * classification (same action, tier and rule) from the same session within `windowMs` of
 * the entry's first call is counted into that entry — `count`, `firstAt`, `lastAt` in its
 * data — instead of adding a row. Only `action.classified` passes through here: a decision,
 * a request or anything else a person did is always an entry of its own.
 *
 * What is durable when a `classify` is answered: the fold's entry (the first call of a fold
 * writes it, and its answer waits for the commit like any write). A repeat is counted in
 * memory and its count written at most {@link FOLD_WRITE_MS} later, in one batch with every
 * other fold's, and at once before the trail is read ({@link flush}: `audit.query`, the
 * daemon's stop). The audit sealer chains an entry only `classifyFoldMs` + 1 s after it was
 * written, so by then its last count is in it. A repeat writes nothing by itself, so its answer waits for
 * no commit. A crash loses at most the last {@link FOLD_WRITE_MS} of repeat counts — never
 * an entry, and nothing a person decided or an agent filed.
 *
 * A write that finds the entry gone (pruned, or its batch rolled back) starts a new entry
 * with the calls the lost one did not hold; after any rollback every open fold's whole count
 * is written again. (A fold closed and dropped in a batch that is then rolled back keeps the
 * count its entry had before: rollbacks come from a full disk, and this is a count of reads.)
 */
export class ClassifyAuditFolder {
  private readonly open = new Map<string, OpenFold>();
  /** Folds whose count is ahead of their entry. */
  private readonly unwritten = new Set<OpenFold>();
  private writeTimer: TimerHandle | undefined;

  constructor(
    private readonly work: UnitOfWork,
    private readonly clock: Clock,
    private readonly windowMs: () => number,
  ) {
    work.onRollback(() => {
      // The rolled-back work may have held any fold's entry or its latest count.
      for (const fold of this.open.values()) {
        fold.stored = 0;
        this.unwritten.add(fold);
      }
      if (this.unwritten.size) this.scheduleWrite();
    });
  }

  record(who: { sessionId: string; agent: string }, data: ClassifiedData): void {
    const windowMs = this.windowMs();
    const now = this.clock.now();
    const key = `${who.sessionId}\n${data.action}\n${data.tier}\n${data.rule}`;
    const fold = windowMs > 0 ? this.open.get(key) : undefined;
    if (fold) {
      if (now >= fold.lastAt && now - fold.firstAt < windowMs) {
        fold.count++;
        fold.lastAt = now;
        if (!this.unwritten.has(fold)) {
          this.unwritten.add(fold);
          this.scheduleWrite();
        }
        return;
      }
      // Closed: its last count goes to its entry before a new fold takes the key.
      this.writeOne(fold);
    }
    const seq = this.work.record('action.classified', {
      sessionId: who.sessionId,
      agent: who.agent,
      data: { ...data },
    });
    if (windowMs <= 0) return;
    if (this.open.size >= SWEEP_AT) this.sweep(now, windowMs);
    const firstAtIso = iso(now);
    this.open.set(key, {
      who,
      data,
      seq,
      firstAt: now,
      firstAtIso,
      lastAt: now,
      count: 1,
      stored: 1,
    });
  }

  /**
   * Writes every count still held in memory into its entry (in the open batch). A write the
   * store refuses (a full disk) leaves its count in memory for the next try: it runs from a
   * timer and before reads, where an error would have nobody to answer.
   */
  flush(): void {
    this.writeTimer?.cancel();
    this.writeTimer = undefined;
    let failed = false;
    for (const fold of [...this.unwritten]) {
      try {
        this.writeOne(fold);
      } catch {
        failed = true;
      }
    }
    if (failed) this.scheduleWrite();
  }

  /** Stops the write timer; call {@link flush} first for the counts it would have written. */
  dispose(): void {
    this.writeTimer?.cancel();
    this.writeTimer = undefined;
  }

  private scheduleWrite(): void {
    this.writeTimer ??= this.clock.setTimer(FOLD_WRITE_MS, () => {
      this.writeTimer = undefined;
      this.flush();
    });
  }

  /** One fold's count into its entry, or a new entry for the calls a lost entry held. */
  private writeOne(fold: OpenFold): void {
    if (!this.unwritten.delete(fold)) return;
    if (fold.count === fold.stored) return;
    try {
      this.writeCount(fold);
    } catch (error) {
      this.unwritten.add(fold);
      throw error;
    }
  }

  private writeCount(fold: OpenFold): void {
    const folded = {
      ...fold.data,
      count: fold.count,
      firstAt: fold.firstAtIso,
      lastAt: iso(fold.lastAt),
    };
    if (this.work.amendAudit(fold.seq, folded)) {
      fold.stored = fold.count;
      return;
    }
    // The entry is gone: a new one holds the calls it did not.
    const calls = fold.count - fold.stored;
    const data =
      calls === 1
        ? { ...fold.data }
        : { ...fold.data, count: calls, firstAt: fold.firstAtIso, lastAt: iso(fold.lastAt) };
    fold.seq = this.work.record('action.classified', {
      sessionId: fold.who.sessionId,
      agent: fold.who.agent,
      data,
    });
    fold.count = calls;
    fold.stored = calls;
  }

  /**
   * Drops the closed folds, their last counts written (or, when the store refuses, left to the
   * next {@link flush}: a dropped fold's unwritten count stays in `unwritten`).
   */
  private sweep(now: number, windowMs: number): void {
    let failed = false;
    for (const [key, fold] of this.open) {
      if (now - fold.firstAt < windowMs) continue;
      try {
        this.writeOne(fold);
      } catch {
        failed = true;
      }
      this.open.delete(key);
    }
    if (failed) this.scheduleWrite();
    // Still full: many sessions at once; forgetting a fold only costs a row.
    if (this.open.size >= SWEEP_AT) {
      this.flush();
      this.open.clear();
    }
  }
}
