import type { Clock } from '../../shared/clock';
import type { Ed25519Pair } from '../../shared/node/hub-keys';
import { appendAudit } from './store/audit-repo';
import {
  JOB_TABLES,
  jobRowsWrittenSince,
  lockDataJob,
  saveDataJob,
  updateJobRow,
  WRITTEN_AT,
} from './store/data-job-repo';
import type { SqlDatabase } from './store/sql';
import {
  STORED_SECRETS_BATCH,
  STORED_SECRETS_JOB,
  STORED_SECRETS_PHASES,
} from './stored-secrets-job';

/**
 * How long after the job finished its catch-up rounds go on: longer than a rolling upgrade
 * takes, so the last replica of an older version has stopped writing well before.
 */
export const CATCH_UP_WINDOW_MS = 24 * 60 * 60_000;

/** How often a replica runs a round while the window is open. */
export const CATCH_UP_EVERY_MS = 10 * 60_000;

/** Rows written this long before the last round are looked at again: replicas' clocks differ. */
const CLOCK_MARGIN_MS = 5 * 60_000;

/**
 * The job's tables whose rows an older replica writes with the text it received: not the
 * audit table, whose rows every version since the chain began chains, and chained rows are
 * kept.
 */
const TABLES = STORED_SECRETS_PHASES.flatMap((p) =>
  p.name in WRITTEN_AT ? [{ name: p.name as keyof typeof WRITTEN_AT, mask: p.mask }] : [],
);

export interface CatchUpOptions {
  db: SqlDatabase;
  identity: Ed25519Pair;
  clock: Pick<Clock, 'now'>;
  batch?: number;
}

export interface CatchUpResult {
  /** Whether a round ran (false: the job is not done, or its window has closed). */
  ran: boolean;
  counts: Record<string, number>;
}

/**
 * One catch-up round of the stored-secrets job (stored-secrets-job.ts). During a rolling
 * upgrade a replica of an older version still serves, and stores what machines of older
 * versions send as it came: after the job finished, or behind the place the job had reached in
 * a table's key order. For a day after the job, each round masks, with the same functions, the
 * rows written since the previous round (by their time, not their key), a few minutes of
 * overlap included; rows the job or the hub already masked are left as they are. A round that
 * masked something appends one chained audit entry of what it changed.
 */
export async function catchUpStoredSecrets(o: CatchUpOptions): Promise<CatchUpResult> {
  const batch = o.batch ?? STORED_SECRETS_BATCH;
  const now = o.clock.now();
  const start = await o.db.transaction(async (tx) => {
    const state = await lockDataJob(tx, STORED_SECRETS_JOB);
    if (!state || state.doneAt === null) return undefined;
    const closes = state.doneAt + CATCH_UP_WINDOW_MS;
    if ((state.caughtUpTo ?? 0) >= closes) return undefined;
    return {
      from: (state.caughtUpTo ?? state.startedAt ?? state.doneAt) - CLOCK_MARGIN_MS,
      closes,
    };
  });
  if (!start) return { ran: false, counts: {} };
  const counts: Record<string, number> = {};
  for (const t of TABLES) {
    const table = JOB_TABLES[t.name];
    let after: (string | number)[] | null = null;
    for (;;) {
      const rows = await o.db.transaction(async (tx) => {
        const found = await jobRowsWrittenSince(
          tx,
          table,
          WRITTEN_AT[t.name],
          start.from,
          after,
          batch,
        );
        for (const row of found) {
          const { set } = t.mask(row, o.identity);
          if (!set) continue;
          await updateJobRow(
            tx,
            table,
            table.key.map((k) => row[k] as string | number),
            set,
          );
          counts[t.name] = (counts[t.name] ?? 0) + 1;
        }
        return found;
      });
      if (rows.length < batch) break;
      const last = rows.at(-1)!;
      after = [Number(last.written_at), ...table.key.map((k) => last[k] as string | number)];
    }
  }
  await o.db.transaction(async (tx) => {
    const state = await lockDataJob(tx, STORED_SECRETS_JOB);
    if (!state) return;
    // The round covered what was written up to its start; past the window, it is the last.
    state.caughtUpTo = Math.max(state.caughtUpTo ?? 0, now >= start.closes ? start.closes : now);
    await saveDataJob(tx, STORED_SECRETS_JOB, state);
    // Last in the transaction, as every append is (the chain's lock comes after the rows').
    if (Object.keys(counts).length > 0)
      await appendAudit(tx, now, {
        type: 'hub.stored_secrets_masked',
        actor: 'hub',
        data: { ...counts, catchUp: true },
      });
  });
  return { ran: true, counts };
}

/**
 * Runs a catch-up round every `everyMs` until stopped or its window closes; a failed round
 * (the database away) waits for the next. Replicas may run rounds together: each row is
 * locked while it is masked, and masking a masked row changes nothing.
 */
export function startStoredSecretsCatchUp(
  o: CatchUpOptions & { log: (line: string) => void },
  everyMs = CATCH_UP_EVERY_MS,
): () => void {
  const timer = setInterval(() => {
    catchUpStoredSecrets(o)
      .then((r) => {
        if (!r.ran) clearInterval(timer);
        else if (Object.keys(r.counts).length > 0)
          o.log(`gatehouse hub: masked what an older replica stored: ${countsText(r.counts)}`);
      })
      .catch(() => undefined);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** `2 requests, 1 decisions`: what a round masked, for the hub's log. */
export const countsText = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([table, n]) => `${n} ${table}`)
    .join(', ');
