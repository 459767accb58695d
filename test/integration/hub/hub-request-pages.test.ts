import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import {
  hubRequestPage,
  type HubRequestPageQuery,
} from '../../../main/hub/store/request-pages-repo';
import { storePublished } from '../../../main/hub/store/requests-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import type { RequestRecord, Urgency } from '../../../shared/domain';
import { byRequestAttention } from '../../../shared/queue-order';
import { LONG_WAIT_MS } from '../../../shared/request-picture/inferred-urgency';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { shellRequest } from '../../support/hub-service-stage';

const T0 = 1_800_000_000_000;

function request(
  id: string,
  o: {
    at: number;
    urgency?: Urgency;
    status?: RequestRecord['status'];
    blocked?: boolean;
    gone?: boolean;
  },
): RequestRecord {
  return shellRequest(id, o.at, {
    ...(o.urgency ? { urgency: o.urgency } : {}),
    ...(o.status ? { status: o.status } : {}),
    ...(o.blocked ? { timeoutAt: new Date(o.at + 60_000).toISOString() } : {}),
    ...(o.gone ? { agentConnected: false } : {}),
  });
}

async function publish(db: SqlDatabase, machineId: string, rs: RequestRecord[], now: number) {
  const [m] = await db.query<{ last_seq: string | number }>(
    'SELECT last_seq FROM machines WHERE machine_id = $1',
    [machineId],
  );
  const seq = Number(m!.last_seq);
  await db.transaction((tx) =>
    storePublished(
      tx,
      machineId,
      rs.map((request, i) => ({ seq: seq + i + 1, kind: 'request.asked' as const, request })),
      now,
    ),
  );
}

/** Every page, following nextCursor; also what each page said the total was. */
async function allPages(db: SqlDatabase, q: Omit<HubRequestPageQuery, 'cursor'>) {
  const seen: string[] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await hubRequestPage(db, { ...q, ...(cursor ? { cursor } : {}) });
    expect(page.requests.length).toBeLessThanOrEqual(q.limit);
    seen.push(...page.requests.map((r) => `${r.machineName}/${r.requestId}`));
    totals.push(page.total);
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  return { seen, totals, pages };
}

const dbs = hubDatabases();

/**
 * `gatehouse --hub URL list` pages the hub by keyset: every request once, in the queue's
 * order (waiting) or newest first (history), however many there are, and a request arriving
 * between pages neither repeats nor hides one already counted. Both databases.
 */
describe.each(HUB_BACKENDS)('paging the team requests on %s', (backend) => {
  async function seeded(): Promise<{ db: SqlDatabase; records: Map<string, RequestRecord> }> {
    const db = await dbs.fresh(backend);
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    await registerMachine(db, { machineId: 'm2', name: 'ci', publicKey: 'k2', now: T0 });
    const urgencies: Urgency[] = ['low', 'normal', 'high'];
    const laptop = Array.from({ length: 12 }, (_, i) =>
      request(`r${String(i).padStart(2, '0')}`, {
        // Several share a filing time, so the id must break the tie.
        at: T0 + Math.floor(i / 3) * 1000,
        urgency: urgencies[i % 3]!,
        blocked: i % 4 === 0,
        gone: i % 5 === 0,
        status: i % 7 === 6 ? 'approved' : i === 5 ? 'timed_out' : 'pending',
      }),
    );
    // The same id on another machine (ids are per machine), and the same filing time.
    const ci = [request('r03', { at: T0 + 1000 }), request('q00', { at: T0 + 500, blocked: true })];
    await publish(db, 'm1', laptop, T0 + 10);
    await publish(db, 'm2', ci, T0 + 10);
    const records = new Map<string, RequestRecord>();
    for (const r of laptop) records.set(`laptop/${r.requestId}`, r);
    for (const r of ci) records.set(`ci/${r.requestId}`, r);
    return { db, records };
  }

  it('lists the waiting queue over many pages in the order every surface sorts it', async () => {
    const { db, records } = await seeded();
    const waiting = [...records.entries()].filter(([, r]) =>
      ['pending', 'timed_out'].includes(r.status),
    );
    const expected = waiting
      .sort(([ka, a], [kb, b]) => byRequestAttention(a, b) || (ka < kb ? 1 : -1))
      .map(([k]) => k);
    const { seen, totals, pages } = await allPages(db, { waiting: true, limit: 3 });
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 3));
    expect(new Set(totals)).toEqual(new Set([expected.length]));
    const gone = await allPages(db, { waiting: true, connected: false, limit: 2 });
    expect(gone.seen).toEqual(expected.filter((k) => records.get(k)!.agentConnected === false));
  });

  it('lists the history newest first; one arriving between pages repeats nothing', async () => {
    const { db, records } = await seeded();
    const first = await hubRequestPage(db, { waiting: false, limit: 4 });
    expect(first.total).toBe(records.size);
    // A newer request lands before the next page (an offset would now repeat a row).
    await publish(db, 'm1', [request('z99', { at: T0 + 99_000 })], T0 + 20);
    let cursor = first.nextCursor;
    const seen = first.requests.map((r) => `${r.machineName}/${r.requestId}`);
    while (cursor) {
      const page = await hubRequestPage(db, { waiting: false, limit: 4, cursor });
      seen.push(...page.requests.map((r) => `${r.machineName}/${r.requestId}`));
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(records.size);
    expect(new Set(seen)).toEqual(new Set(records.keys()));
    // Newest first by arrival at the hub (all arrived at once here), then by id, then machine.
    const ids = (await allPages(db, { waiting: false, limit: 5 })).seen;
    expect(ids[0]).toBe('laptop/z99');
    expect(ids.slice(1)).toEqual(
      [...records.keys()].sort((a, b) => {
        const [ma, ia] = a.split('/');
        const [mb, ib] = b.split('/');
        return ia! < ib! ? 1 : ia! > ib! ? -1 : ma! === 'laptop' && mb === 'ci' ? 1 : -1;
      }),
    );
  });

  it('ranks every page at the first page’s time: a request whose wait grows long between pages shows once', async () => {
    const db = await dbs.fresh(backend);
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    // Two blocked agents that said `high`, and one blocked agent filed before them that said
    // nothing: its urgency is inferred `high` once it has waited LONG_WAIT_MS, which then
    // ranks it before both (oldest first within a rank).
    const early = request('a-early', { at: T0, blocked: true });
    const high = [1, 2, 3].map((i) =>
      request(`h${i}`, { at: T0 + i * 1000, urgency: 'high', blocked: true }),
    );
    await publish(db, 'm1', [early, ...high], T0 + 5_000);
    const before = T0 + LONG_WAIT_MS - 1;
    const after = T0 + LONG_WAIT_MS + 1;
    const names = (p: { requests: { requestId: string }[] }) => p.requests.map((r) => r.requestId);

    const first = await hubRequestPage(db, { waiting: true, limit: 2, now: before });
    expect(names(first)).toEqual(['h1', 'h2']);
    // The next pages are asked for after the long wait: still ranked as the first page was.
    const seen = names(first);
    for (let cursor = first.nextCursor; cursor;) {
      const page = await hubRequestPage(db, { waiting: true, limit: 2, now: after, cursor });
      seen.push(...names(page));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(['h1', 'h2', 'h3', 'a-early']);
    // A new listing ranks at its own time: the long wait now puts it first.
    expect(names(await hubRequestPage(db, { waiting: true, limit: 5, now: after }))).toEqual([
      'a-early',
      'h1',
      'h2',
      'h3',
    ]);
  });

  it('refuses a cursor it did not hand out', async () => {
    const { db } = await seeded();
    const encoded = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
    for (const cursor of [
      '3',
      'not-base64!',
      encoded([1, 2]),
      // A time that is not a whole number of milliseconds.
      encoded([1, '2026-01-01T00:00:00.000Z', 'r', 'm', 1.5]),
    ])
      await expect(hubRequestPage(db, { waiting: true, limit: 2, cursor })).rejects.toBeInstanceOf(
        z.ZodError,
      );
  });
});
