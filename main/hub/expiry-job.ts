import type { Clock } from '../../shared/clock';
import { appendAudits, type HubAuditEntry } from './store/audit-repo';
import { expireJoinCodes } from './store/machines-repo';
import { deleteDeadSignIns } from './store/sign-in-cleanup-repo';
import type { SqlDatabase } from './store/sql';

/** The advisory lock of the expiry job: whichever replica holds it runs the round. */
export const EXPIRY_LOCK = 7_230_023_002;

/**
 * One round of the work that must run once across replicas (expiring join codes, deleting
 * dead browser sessions and sign-in links): inside one transaction that holds the advisory
 * lock, or skipped when another replica holds it. Returns what it did.
 */
export async function runExpiryRound(
  db: SqlDatabase,
  clock: Clock,
): Promise<
  | { ran: false }
  | { ran: true; expiredCodes: number; deletedSessions: number; deletedTokens: number }
> {
  return db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [EXPIRY_LOCK],
    );
    if (!lock?.locked) return { ran: false as const };
    const now = clock.now();
    const expiredCodes = await expireJoinCodes(tx, now);
    const deleted = await deleteDeadSignIns(tx, now);
    // Audited after both, so the chain's lock is never held while rows are being deleted.
    const audits: Omit<HubAuditEntry, 'seq' | 'at'>[] = [];
    if (expiredCodes > 0)
      audits.push({ type: 'join_codes.expired', data: { count: expiredCodes } });
    if (deleted.sessions + deleted.tokens > 0)
      audits.push({ type: 'sign_ins.deleted', data: { ...deleted } });
    await appendAudits(tx, now, audits);
    return {
      ran: true as const,
      expiredCodes,
      deletedSessions: deleted.sessions,
      deletedTokens: deleted.tokens,
    };
  });
}

/** Runs a round every `everyMs` until stopped; a failed round (database away) waits for the next. */
export function startExpiryJob(db: SqlDatabase, clock: Clock, everyMs = 60_000): () => void {
  const timer = setInterval(() => {
    runExpiryRound(db, clock).catch(() => undefined);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
