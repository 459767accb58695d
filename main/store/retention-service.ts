import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../shared/clock';
import { iso } from '../../shared/clock';
import type { RetentionPruneResult } from '../../shared/protocol/retention-methods';
import type { Settings } from '../../shared/settings/index';
import type { UnitOfWork } from '../engine/kernel/unit-of-work';
import type { AuditChainRepository } from './audit-chain-repository';
import { RetentionStore, type PruneKind } from './retention-store';
import type { TranscriptFiles } from './transcript-files';

const DAY_MS = 86_400_000;
/** Pages one incremental-vacuum step gives back (1 KiB pages: 64 KiB, about a millisecond). */
const VACUUM_PAGES_PER_STEP = 64;
/** The smallest request key (keys of ids of another shape are negative, see migration 004). */
const FIRST_CURSOR = Number.MIN_SAFE_INTEGER;
const KINDS: readonly PruneKind[] = ['requests', 'audit', 'transcript', 'sessions'];

export interface RetentionServiceOptions {
  db: Database.Database;
  clock: Clock;
  settings: () => Settings;
  /** The engine's unit of work: the summary audit entry goes through it. */
  work: UnitOfWork;
  /** The folder of closed sessions' transcript files (main/store/transcript-files.ts). */
  transcriptsDir: string;
  /** Removes the files, after any write of them under way (so a write cannot put one back). */
  archive: Pick<TranscriptFiles, 'remove'>;
  /** The audit chain: history goes only in whole signed segments of it. */
  chain?: AuditChainRepository;
  /** Closes waiting requests of agents gone for good (the engine's `closeAbandoned`). */
  closeAbandoned?: () => number;
  /** First background run after start, then every `intervalMs`. */
  firstRunMs?: number;
  intervalMs?: number;
}

type Tally = { count: number; oldest?: number; newest?: number };

/** Lets agents' calls and the engine's batch commit run between two steps. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Retention: deletes decided requests, audit entries, transcript rows and ended
 * sessions (with their transcript files) older than `retention.days`, in the background.
 * Each step is one write transaction of at most `retention.batchRows` rows, run only while
 * the engine has no batch open, with a turn of the event loop between steps; then the freed
 * pages go back to the file system (incremental vacuum) in small steps too. Requests still
 * waiting (pending, timed out), and anything an active session or a live grant uses, stay.
 */
export class RetentionService {
  private readonly store: RetentionStore;
  private running?: Promise<RetentionPruneResult> | undefined;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private stopped = false;

  constructor(private readonly o: RetentionServiceOptions) {
    this.store = new RetentionStore(o.db);
  }

  /** Schedules background runs (timers do not keep the process alive). */
  start(): void {
    const run = () => {
      if (!this.stopped) void this.prune({ dryRun: false }, 'schedule').catch(logFailure);
    };
    const first = setTimeout(run, this.o.firstRunMs ?? 60_000);
    const every = setInterval(run, this.o.intervalMs ?? 6 * 3_600_000);
    first.unref();
    every.unref();
    this.timers = [first, every];
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
  }

  /** Prunes now (joining a run under way), or with `dryRun` counts what would go. */
  prune(
    p: { dryRun: boolean },
    source: 'manual' | 'schedule' = 'manual',
  ): Promise<RetentionPruneResult> {
    if (p.dryRun) return this.walk(true, source);
    this.running ??= this.walk(false, source).finally(() => (this.running = undefined));
    return this.running;
  }

  private async walk(dryRun: boolean, source: string): Promise<RetentionPruneResult> {
    const { days, batchRows } = this.o.settings().retention;
    const cutoff = this.o.clock.now() - days * DAY_MS;
    await this.writerIdle();
    if (!dryRun) this.o.closeAbandoned?.();
    let longestStepMs = 0;
    const timed = <T>(fn: () => T): T => {
      const t0 = performance.now();
      try {
        return fn();
      } finally {
        longestStepMs = Math.max(longestStepMs, performance.now() - t0);
      }
    };
    const auditThroughSeq = timed(() => this.chainStart(cutoff, dryRun));
    const keep = timed(() => this.store.keepSets(auditThroughSeq));
    const tallies = {} as Record<PruneKind, Tally>;
    let steps = 0;
    let largestStep = 0;
    let transcriptFiles = 0;
    for (const kind of KINDS) {
      const tally: Tally = { count: 0 };
      tallies[kind] = tally;
      let cursor = kind === 'requests' ? FIRST_CURSOR : 0;
      for (;;) {
        if (this.stopped) throw new Error('Gatehouse is shutting down');
        await this.writerIdle();
        const step = timed(() => this.store.step(kind, cursor, batchRows, cutoff, keep));
        cursor = step.cursor;
        const rows = step.rows;
        if (rows.length) {
          const n = dryRun
            ? rows.length
            : this.store.delete(
                kind,
                rows.map((r) => r.rowid),
              );
          if (!dryRun) {
            steps++;
            largestStep = Math.max(largestStep, rows.length);
          }
          tally.count += n;
          for (const r of rows) {
            tally.oldest = Math.min(tally.oldest ?? r.at, r.at);
            tally.newest = Math.max(tally.newest ?? r.at, r.at);
          }
          transcriptFiles += await this.removeTranscriptFiles(step.sessionIds, dryRun);
        }
        if (step.done) break;
        await nextTurn();
      }
    }
    if (!dryRun && Number.isFinite(auditThroughSeq)) await this.pruneChainLinks(auditThroughSeq);
    const bytesFreed = dryRun ? 0 : await this.vacuum(timed);
    const result: RetentionPruneResult = {
      dryRun,
      days,
      cutoff: iso(cutoff),
      requests: wire(tallies.requests),
      audit: wire(tallies.audit),
      transcript: wire(tallies.transcript),
      sessions: wire(tallies.sessions),
      transcriptFiles,
      bytesFreed,
      steps,
      largestStep,
      longestStepMs: Math.round(longestStepMs * 100) / 100,
    };
    if (!dryRun && (source === 'manual' || KINDS.some((k) => tallies[k].count > 0)))
      await this.audit(result, source);
    return result;
  }

  /**
   * How far the audit trail may be pruned: through the newest signed checkpoint whose entries
   * are all older than the cutoff, which becomes the chain's new start (not on a dry run).
   * Infinity when nothing is chained yet (history from before the chain).
   */
  private chainStart(cutoff: number, dryRun: boolean): number {
    const chain = this.o.chain;
    if (!chain) return Number.POSITIVE_INFINITY;
    const base = chain.base();
    if (!base && !chain.head()) return Number.POSITIVE_INFINITY;
    const through = chain.checkpointThrough(cutoff);
    if (!through || through.seq <= (base?.seq ?? 0)) return base?.seq ?? 0;
    if (!dryRun) chain.moveBase(through);
    return through.seq;
  }

  /** The chain's links at or below its start, in small steps like the rest. */
  private async pruneChainLinks(throughSeq: number): Promise<void> {
    const { batchRows } = this.o.settings().retention;
    for (;;) {
      await this.writerIdle();
      if (this.o.chain?.pruneLinks(throughSeq, batchRows) !== batchRows) return;
      await nextTurn();
    }
  }

  /** The one summary entry a run leaves in the audit trail. */
  private async audit(r: RetentionPruneResult, source: string): Promise<void> {
    await this.writerIdle();
    this.o.work.record('retention.pruned', {
      data: {
        source,
        days: r.days,
        cutoff: r.cutoff,
        requests: r.requests.count,
        audit: r.audit.count,
        transcript: r.transcript.count,
        sessions: r.sessions.count,
        transcriptFiles: r.transcriptFiles,
        bytesFreed: r.bytesFreed,
      },
    });
    await this.o.work.durable();
  }

  private async removeTranscriptFiles(
    sessionIds: readonly string[],
    dryRun: boolean,
  ): Promise<number> {
    let n = 0;
    for (const id of sessionIds) {
      if (dryRun) n += existsSync(join(this.o.transcriptsDir, `${id}.json`)) ? 1 : 0;
      else n += (await this.o.archive.remove(id)) ? 1 : 0;
    }
    return n;
  }

  /** Gives the free pages back to the file system, a small step at a time. */
  private async vacuum(timed: <T>(fn: () => T) => T): Promise<number> {
    const pageSize = this.o.db.pragma('page_size', { simple: true }) as number;
    let freed = 0;
    while (this.store.freePages() > 0 && !this.stopped) {
      await this.writerIdle();
      const pages = timed(() => this.store.vacuumStep(VACUUM_PAGES_PER_STEP));
      // auto_vacuum is off (a database the one-time VACUUM has not converted yet).
      if (pages <= 0) break;
      freed += pages * pageSize;
      await nextTurn();
    }
    return freed;
  }

  /** Waits until the engine's write batch (group commit) is committed. */
  private async writerIdle(): Promise<void> {
    while (this.o.db.inTransaction) await nextTurn();
  }
}

function wire(t: Tally): RetentionPruneResult['requests'] {
  return {
    count: t.count,
    ...(t.oldest !== undefined ? { oldest: iso(t.oldest) } : {}),
    ...(t.newest !== undefined ? { newest: iso(t.newest) } : {}),
  };
}

function logFailure(error: unknown): void {
  console.error('gatehouse: pruning old history failed, will retry later:', error);
}
