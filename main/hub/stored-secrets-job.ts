import type { Clock } from '../../shared/clock';
import type { Ed25519Pair } from '../../shared/node/hub-keys';
import { appendAudit } from './store/audit-repo';
import {
  countJobRows,
  JOB_TABLES,
  jobRowsAfter,
  lockDataJob,
  rewriteJobTables,
  saveDataJob,
  updateJobRow,
  type DataJobState,
} from './store/data-job-repo';
import type { SqlDatabase } from './store/sql';
import {
  maskAuditRow,
  maskDecisionRow,
  maskNoticeRow,
  maskRequestRow,
  maskShadowRow,
  type StoredRowMask,
} from './stored-secrets-masks';

/** The job's name in hub_data_jobs (migration 015 owes it to every hub from before). */
export const STORED_SECRETS_JOB = 'mask_stored_secrets';

/** Rows per transaction: a crash loses at most one batch's work, and no lock is held long. */
export const STORED_SECRETS_BATCH = 500;

/** The most chained audit rows the job's own audit entry names (the count is always whole). */
const KEPT_NAMED = 200;

/** The tables in the order the job walks them, each with what its rows become. */
export const STORED_SECRETS_PHASES: readonly {
  name: keyof typeof JOB_TABLES;
  mask: StoredRowMask;
}[] = [
  { name: 'requests', mask: maskRequestRow },
  { name: 'decisions', mask: maskDecisionRow },
  { name: 'shadow', mask: maskShadowRow },
  { name: 'notices', mask: maskNoticeRow },
  { name: 'audit', mask: maskAuditRow },
];

export interface StoredSecretsOptions {
  db: SqlDatabase;
  identity: Ed25519Pair;
  clock: Pick<Clock, 'now'>;
  print: (line: string) => void;
  batch?: number;
  /** Runs after each batch commits (a test stops the job there, as a crash would). */
  afterBatch?: (state: DataJobState) => void;
}

export interface StoredSecretsResult {
  /** Whether this call did any of the work (false: it was done before, or never owed). */
  ran: boolean;
  counts: Record<string, number>;
  /**
   * The chained audit rows that hold text the masker recognises, left as they are: the first
   * 200 of their numbers (the job's audit entry names them); `keptCount` counts them all.
   */
  kept: number[];
  keptCount: number;
}

/**
 * Masks, once, the secrets in what the hub stored before it masked what it stores (a request's
 * command, description, target, paths, context and picture, its rule offers, a decision's
 * reason, terms and the machine's answer, shadow examples, desktop notices, audit rows the
 * chain does not cover), with the very functions that mask what arrives now, so the database
 * and the pages hold the same masked text either way. Each batch of rows, by primary key,
 * commits with the job's place, under the jobs' lock: a crash resumes after the last batch,
 * and replicas starting together take turns. The last batch records the job done and appends
 * one chained audit entry of what it changed and which chained entries it kept (none when it
 * found nothing to mask).
 */
export async function maskStoredSecrets(o: StoredSecretsOptions): Promise<StoredSecretsResult> {
  const batch = o.batch ?? STORED_SECRETS_BATCH;
  let ran = false;
  let told = false;
  for (;;) {
    const step = await o.db.transaction(async (tx) => {
      const state = await lockDataJob(tx, STORED_SECRETS_JOB);
      if (!state || state.doneAt !== null) return { state, done: true };
      state.startedAt ??= o.clock.now();
      const phase =
        STORED_SECRETS_PHASES.find((p) => p.name === state.phase) ?? STORED_SECRETS_PHASES[0]!;
      const table = JOB_TABLES[phase.name];
      state.phaseTotal ??= await countJobRows(tx, table);
      const rows = await jobRowsAfter(tx, table, state.afterKey, batch);
      for (const row of rows) {
        const { set, kept } = phase.mask(row, o.identity);
        const key = table.key.map((k) => row[k] as string | number);
        if (set) {
          await updateJobRow(tx, table, key, set);
          state.counts[phase.name] = (state.counts[phase.name] ?? 0) + 1;
        }
        if (kept) {
          // Only the first are named: the state is written again with every batch.
          if (state.kept.length < KEPT_NAMED) state.kept.push(Number(row.seq));
          state.keptCount++;
        }
      }
      state.phaseDone += rows.length;
      const finishedPhase = rows.length < batch;
      const shown = { phase: phase.name, done: state.phaseDone, total: state.phaseTotal };
      if (!finishedPhase) {
        state.afterKey = table.key.map((k) => rows.at(-1)![k] as string | number);
      } else {
        const next = STORED_SECRETS_PHASES[STORED_SECRETS_PHASES.indexOf(phase) + 1];
        state.afterKey = null;
        state.phaseTotal = null;
        state.phaseDone = 0;
        if (next) state.phase = next.name;
        else state.doneAt = o.clock.now();
      }
      await saveDataJob(tx, STORED_SECRETS_JOB, state);
      const changed = Object.keys(state.counts).length > 0 || state.keptCount > 0;
      // Last in the transaction, as every append is (the chain's lock comes after the rows').
      // A hub with nothing to mask (a new one) gets no entry: the job's row says it is done.
      if (state.doneAt !== null && changed)
        await appendAudit(tx, state.doneAt, {
          type: 'hub.stored_secrets_masked',
          actor: 'hub',
          data: {
            ...state.counts,
            chainedKept: state.keptCount,
            ...(state.keptCount > 0 ? { chainedKeptSeqs: state.kept.slice(0, KEPT_NAMED) } : {}),
          },
        });
      return { state, done: false, shown, seen: rows.length };
    });
    const { state } = step;
    if (step.done || !state) {
      if (told) printDone(o.print, state!);
      if (ran && state && Object.keys(state.counts).length > 0) await dropOldVersions(o);
      return {
        ran,
        counts: state?.counts ?? {},
        kept: state?.kept ?? [],
        keptCount: state?.keptCount ?? 0,
      };
    }
    ran = true;
    // Said only when there is something to look at: a new hub's empty tables pass silently.
    if (!told && step.seen! > 0) {
      o.print('gatehouse hub: masking the secrets in what this hub stored before (once)');
      told = true;
    }
    const s = step.shown!;
    if (s.total > batch)
      o.print(`gatehouse hub: masking stored secrets: ${s.phase} ${s.done} of ${s.total}`);
    o.afterBatch?.(state);
  }
}

/**
 * An UPDATE leaves the row's old version in the table's pages (and the write-ahead log) until
 * PostgreSQL reuses them. The embedded database is this process's alone, and the hub does not
 * serve yet: its tables are rewritten at once. A server may have other replicas serving: its
 * admin is told what to run.
 */
async function dropOldVersions(o: StoredSecretsOptions): Promise<void> {
  const tables = STORED_SECRETS_PHASES.map((p) => JOB_TABLES[p.name]);
  if (o.db.kind === 'pglite') {
    await rewriteJobTables(o.db, tables);
    return;
  }
  o.print(
    `gatehouse hub: the old text stays in PostgreSQL's dead row versions until they are reused: run VACUUM FULL ${tables.map((t) => t.table).join(', ')} when convenient, and replace older backups (docs/hub.md)`,
  );
}

function printDone(print: (line: string) => void, state: DataJobState): void {
  const c = state.counts;
  print(
    `gatehouse hub: stored secrets masked: ${c.requests ?? 0} requests, ${c.decisions ?? 0} decisions, ${c.shadow ?? 0} shadow examples, ${c.notices ?? 0} desktop notices, ${c.audit ?? 0} audit entries from before the chain` +
      (state.keptCount > 0
        ? `; ${state.keptCount} chained audit entries kept as they are (docs/hub.md)`
        : ''),
  );
}
