import { describe, expect, it } from 'vitest';
import { runExpiryRound } from '../../../main/hub/expiry-job';
import {
  claimDueDesktopNotices,
  DESKTOP_NOTICE_KEPT_MS,
  missedByMachine,
  queueDesktopNotice,
} from '../../../main/hub/store/desktop-notices-repo';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import { addPerson } from '../../../main/hub/store/people-repo';
import { claimForPerson } from '../../../main/hub/store/person-notify-repo';
import { storePublished } from '../../../main/hub/store/requests-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import type { Clock } from '../../../shared/clock';
import type { RequestRecord } from '../../../shared/domain';
import type { OutboxEntry } from '../../../shared/hub-protocol';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { shellRequest } from '../../support/hub-service-stage';

const T0 = 1_800_000_000_000;
const DAY = 24 * 60 * 60_000;

const clockAt = (now: number): Clock => ({
  now: () => now,
  setTimer: () => ({ cancel: () => undefined }),
});

const request = (id: string, status: RequestRecord['status'], at: number): RequestRecord =>
  shellRequest(id, at, { status });

/** Publishes one entry from build-a, as its link would, at `now`. */
async function publish(db: SqlDatabase, kind: OutboxEntry['kind'], r: RequestRecord, now: number) {
  const [m] = await db.query<{ last_seq: string | number }>(
    "SELECT last_seq FROM machines WHERE machine_id = 'm-build'",
  );
  const entry = { seq: Number(m!.last_seq) + 1, kind, request: r } as OutboxEntry;
  await db.transaction((tx) => storePublished(tx, 'm-build', [entry], now));
}

/** The per-person round's part that matters here: ann is told, her laptop gets a notice. */
async function notifyAnn(db: SqlDatabase, now: number) {
  await db.transaction(async (tx) => {
    for (const r of await claimForPerson(tx, { personId: 'p-ann', kind: 'new', now, limit: 50 }))
      await queueDesktopNotice(tx, {
        toMachineId: 'm-laptop',
        machineId: r.machineId,
        requestId: r.requestId,
        kind: 'new',
        notice: { title: r.requestId },
        now,
      });
  });
}

const noticeRows = async (db: SqlDatabase) =>
  (
    await db.query<{ request_id: string }>(
      'SELECT request_id FROM desktop_notices ORDER BY request_id',
    )
  ).map((r) => r.request_id);

const dbs = hubDatabases();

/**
 * The hub's once-across-replicas expiry job deletes the desktop notices that can never be
 * sent again (their request no longer waits, or was queued more than a week ago), so the
 * table does not grow forever; a notice of a request still waiting stays and is still
 * delivered when ann's laptop links, and a notice deleted for its age is not queued again
 * when another machine of hers links later.
 */
describe.each(HUB_BACKENDS)('pruning the hub desktop notices on %s', (backend) => {
  it('deletes settled and week-old notices, keeps the waiting ones, re-queues none', async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p-ann', name: 'ann', role: 'approver', now: T0 - 30 * DAY });
    const machine = (machineId: string, name: string, owner?: string) =>
      registerMachine(db, {
        machineId,
        name,
        publicKey: `key-${name}`,
        now: T0 - 30 * DAY,
        ...(owner ? { owner } : {}),
      });
    await machine('m-build', 'build-a');
    await machine('m-laptop', 'ann-laptop', 'ann');
    await machine('m-desk', 'ann-desk', 'ann');

    // A request filed eight days ago that still waits (build-a went quiet), one filed now
    // that will be decided, and one filed now that still waits: ann's laptop is told of each.
    await publish(db, 'request.asked', request('r-old', 'pending', T0 - 8 * DAY), T0 - 8 * DAY);
    await notifyAnn(db, T0 - 8 * DAY);
    await publish(db, 'request.asked', request('r-decided', 'pending', T0), T0);
    await publish(db, 'request.asked', request('r-waiting', 'pending', T0), T0);
    await notifyAnn(db, T0);
    expect(await noticeRows(db)).toEqual(['r-decided', 'r-old', 'r-waiting']);

    // Before anything is decided or a week old, nothing goes.
    expect(await runExpiryRound(db, clockAt(T0 - DAY))).toMatchObject({ deletedNotices: 0 });
    expect(await noticeRows(db)).toEqual(['r-decided', 'r-old', 'r-waiting']);

    await publish(db, 'request.decided', request('r-decided', 'approved', T0), T0 + 1);
    expect(await runExpiryRound(db, clockAt(T0 + 2))).toEqual({
      ran: true,
      expiredCodes: 0,
      deletedSessions: 0,
      deletedTokens: 0,
      deletedNotices: 2,
      escalated: 0,
    });
    expect(await noticeRows(db)).toEqual(['r-waiting']);
    // A second round finds nothing more.
    expect(await runExpiryRound(db, clockAt(T0 + 3))).toMatchObject({ deletedNotices: 0 });

    // The laptop links: the notice still due is sent, once.
    const due = await claimDueDesktopNotices(db, 'm-laptop', T0 + 4);
    expect(due.map((n) => n.requestId)).toEqual(['r-waiting']);
    expect(await claimDueDesktopNotices(db, 'm-laptop', T0 + 5)).toEqual([]);

    // ann's desk links after the round: it is owed the request still waiting from today,
    // not the week-old one whose notice was deleted (it would be told of it again).
    const missed = await missedByMachine(db, 'p-ann', 'm-desk', T0 + 6);
    expect(missed.map((r) => r.requestId)).toEqual(['r-waiting']);

    // A week after the laptop's notice was queued, it goes too, sent or not.
    expect(await runExpiryRound(db, clockAt(T0 + DESKTOP_NOTICE_KEPT_MS))).toMatchObject({
      deletedNotices: 0,
    });
    expect(await runExpiryRound(db, clockAt(T0 + DESKTOP_NOTICE_KEPT_MS + 1))).toMatchObject({
      deletedNotices: 1,
    });
    expect(await noticeRows(db)).toEqual([]);
    expect(await missedByMachine(db, 'p-ann', 'm-desk', T0 + DESKTOP_NOTICE_KEPT_MS + 1)).toEqual(
      [],
    );
  });
});
