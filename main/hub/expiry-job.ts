import type { Clock } from '../../shared/clock';
import { escalateDue, escalationAudit, type Escalated } from './escalation';
import { appendAudits, type HubAuditEntry } from './store/audit-repo';
import { deleteSpentDesktopNotices } from './store/desktop-notices-repo';
import { expireJoinCodes } from './store/machines-repo';
import { deleteDeadSignIns } from './store/sign-in-cleanup-repo';
import type { SqlDatabase } from './store/sql';

/** The advisory lock of the expiry job: whichever replica holds it runs the round. */
export const EXPIRY_LOCK = 7_230_023_002;

/** Pages the group a request escalated to (hub-escalation-page.ts), after the round committed. */
export type EscalationPager = (escalated: readonly Escalated[]) => Promise<void>;

/**
 * One round of the work that must run once across replicas (expiring join codes, deleting
 * dead browser sessions, sign-in links and desktop notices that can never be sent again,
 * escalating requests a team rule says nobody decided in time): inside one transaction that holds the advisory lock, or skipped when
 * another replica holds it. What escalated is paged once the round committed. Returns what
 * it did.
 */
export async function runExpiryRound(
  db: SqlDatabase,
  clock: Clock,
  page?: EscalationPager,
): Promise<
  | { ran: false }
  | {
      ran: true;
      expiredCodes: number;
      deletedSessions: number;
      deletedTokens: number;
      deletedNotices: number;
      escalated: number;
    }
> {
  const round = await db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [EXPIRY_LOCK],
    );
    if (!lock?.locked) return { ran: false as const };
    const now = clock.now();
    const expiredCodes = await expireJoinCodes(tx, now);
    const deleted = await deleteDeadSignIns(tx, now);
    // Not audited: a notice is a copy of what the audit already says was sent.
    const deletedNotices = await deleteSpentDesktopNotices(tx, now);
    // Audited after the deletes, so the chain's lock is never held while rows are being deleted.
    const audits: Omit<HubAuditEntry, 'seq' | 'at'>[] = [];
    if (expiredCodes > 0)
      audits.push({ type: 'join_codes.expired', data: { count: expiredCodes } });
    if (deleted.sessions + deleted.tokens > 0)
      audits.push({ type: 'sign_ins.deleted', data: { ...deleted } });
    const escalated = await escalateDue(tx, now);
    audits.push(...escalated.map(escalationAudit));
    await appendAudits(tx, now, audits);
    return {
      ran: true as const,
      expiredCodes,
      deletedSessions: deleted.sessions,
      deletedTokens: deleted.tokens,
      deletedNotices,
      escalated,
    };
  });
  if (!round.ran) return round;
  // Escalated once, in the committed round: a page that fails is audited, not retried.
  if (page && round.escalated.length > 0) await page(round.escalated).catch(() => undefined);
  return { ...round, escalated: round.escalated.length };
}

/** Runs a round every `everyMs` until stopped; a failed round (database away) waits for the next. */
export function startExpiryJob(
  db: SqlDatabase,
  clock: Clock,
  everyMs = 60_000,
  page?: EscalationPager,
): () => void {
  const timer = setInterval(() => {
    runExpiryRound(db, clock, page).catch(() => undefined);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
