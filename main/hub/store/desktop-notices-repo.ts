import { toRequest, type HubRequest, type HubRequestRow } from './requests-repo';
import { num, type Sql } from './sql';

export type DesktopNoticeKind = 'new' | 'reminder';

/**
 * How long a desktop notice is kept while its request still waits: a request waiting longer
 * (its machine gone quiet without being revoked) is no longer worth a notice, and a machine
 * that links after this is not told of it again (missedByMachine skips it too).
 */
export const DESKTOP_NOTICE_KEPT_MS = 7 * 24 * 60 * 60_000;

interface NoticeKey {
  toMachineId: string;
  machineId: string;
  requestId: string;
  kind: DesktopNoticeKind;
}

/** Queues, in the round's transaction, a desktop notice for one of the person's machines. */
export async function queueDesktopNotice(
  sql: Sql,
  n: NoticeKey & { notice: Record<string, unknown>; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO desktop_notices (to_machine_id, machine_id, request_id, kind, notice, queued_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [n.toMachineId, n.machineId, n.requestId, n.kind, n.notice, n.now],
  );
}

/** Marks one queued notice sent; true for the one caller that did (any replica). */
export async function claimDesktopNotice(
  sql: Sql,
  n: NoticeKey & { now: number },
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE desktop_notices SET sent_at = $5
     WHERE to_machine_id = $1 AND machine_id = $2 AND request_id = $3 AND kind = $4
       AND sent_at IS NULL
     RETURNING request_id`,
    [n.toMachineId, n.machineId, n.requestId, n.kind, n.now],
  );
  return rows.length > 0;
}

export interface DueDesktopNotice {
  machineId: string;
  requestId: string;
  kind: DesktopNoticeKind;
  notice: unknown;
  queuedAt: number;
}

/**
 * Marks sent, and returns, every notice queued for this machine and not sent yet whose request
 * still waits (a machine that was offline when its round ran): whichever replica it links to.
 */
export async function claimDueDesktopNotices(
  sql: Sql,
  toMachineId: string,
  now: number,
): Promise<DueDesktopNotice[]> {
  const rows = await sql.query<{
    machine_id: string;
    request_id: string;
    kind: DesktopNoticeKind;
    notice: unknown;
    queued_at: string | number;
  }>(
    `UPDATE desktop_notices d SET sent_at = $2
     FROM requests r, machines m
     WHERE d.to_machine_id = $1 AND d.sent_at IS NULL
       AND r.machine_id = d.machine_id AND r.request_id = d.request_id AND r.status = 'pending'
       AND m.machine_id = d.machine_id AND m.revoked_at IS NULL
     RETURNING d.machine_id, d.request_id, d.kind, d.notice, d.queued_at`,
    [toMachineId, now],
  );
  return rows.map((r) => ({
    machineId: r.machine_id,
    requestId: r.request_id,
    kind: r.kind,
    notice: r.notice,
    queuedAt: num(r.queued_at),
  }));
}

/**
 * Deletes the notices that can never be sent again, so the table does not grow forever: those
 * whose request no longer waits (decided, cancelled, timed out, or gone), and those queued
 * longer than {@link DESKTOP_NOTICE_KEPT_MS} ago. Returns how many went.
 */
export async function deleteSpentDesktopNotices(sql: Sql, now: number): Promise<number> {
  const rows = await sql.query<{ request_id: string }>(
    `DELETE FROM desktop_notices d
     WHERE d.queued_at < $1
       OR NOT EXISTS (SELECT 1 FROM requests r WHERE r.machine_id = d.machine_id
         AND r.request_id = d.request_id AND r.status = 'pending')
     RETURNING d.request_id`,
    [now - DESKTOP_NOTICE_KEPT_MS],
  );
  return rows.length;
}

/**
 * The requests still waiting that the person was told of (or reminded about) and that have no
 * desktop notice queued for this machine of theirs: a machine that joined, or was made theirs,
 * after the round. `reminded` when the round reminded them too. Not those filed longer than
 * {@link DESKTOP_NOTICE_KEPT_MS} before `now`: their notices may have been deleted already.
 */
export async function missedByMachine(
  sql: Sql,
  personId: string,
  toMachineId: string,
  now: number,
): Promise<(HubRequest & { reminded: boolean })[]> {
  const rows = await sql.query<HubRequestRow & { reminded: boolean }>(
    `SELECT r.*, m.name, bool_or(n.kind = 'reminder') AS reminded
     FROM person_notified n
     JOIN requests r ON r.machine_id = n.machine_id AND r.request_id = n.request_id
     JOIN machines m ON m.machine_id = r.machine_id
     WHERE n.person_id = $1 AND r.status = 'pending' AND m.revoked_at IS NULL
       AND r.machine_id <> $2 AND r.created_at >= $3
       AND NOT EXISTS (SELECT 1 FROM desktop_notices d WHERE d.to_machine_id = $2
         AND d.machine_id = r.machine_id AND d.request_id = r.request_id)
     GROUP BY r.machine_id, r.request_id, m.machine_id
     ORDER BY r.created_at, r.request_id LIMIT 200`,
    [personId, toMachineId, now - DESKTOP_NOTICE_KEPT_MS],
  );
  return rows.map((r) => ({ ...toRequest(r), reminded: r.reminded === true }));
}
