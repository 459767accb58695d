import { z } from 'zod';
import { attentionRankSql } from './attention-sql';
import { num, type Sql } from './sql';
import { toRequest, type HubRequest, type HubRequestRow } from './requests-repo';

/**
 * Where the next page starts: the sort key of the last row shown (keyset, not an offset), and
 * for the waiting queue the time its first page ranked at, so every page ranks at that one
 * time. A cursor without the time (a replica before it) ranks at the time of the call.
 */
const WaitingKey = z.union([
  z.tuple([z.number().int(), z.string().max(64), z.string(), z.string(), z.number().int()]),
  z.tuple([z.number().int(), z.string().max(64), z.string(), z.string()]),
]);
const HistoryKey = z.tuple([z.number().int(), z.string(), z.string()]);

const encodeCursor = (key: unknown[]): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

/** A cursor's key, or a refusal (zod, so a 400) when it is not one this hub handed out. */
function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  return schema.parse(raw);
}

/** The attention rank of a row, at the time given as the query's tenth parameter. */
const RANK = attentionRankSql('$10');
/** The record's own filing time (ISO-8601, so byte order is time order). */
const FILED = `(r.record->>'createdAt') COLLATE "C"`;

const FILTERS = `($1::boolean IS NOT TRUE OR r.status IN ('pending', 'timed_out'))
  AND ($2::text IS NULL OR r.machine_id = $2)
  AND ($3::text IS NULL OR r.record->>'agent' = $3)
  AND ($4::boolean IS NULL OR COALESCE((r.record->>'agentConnected')::boolean, true) = $4)`;

export interface HubRequestPageQuery {
  waiting: boolean;
  agent?: string;
  machineId?: string;
  /** Only requests whose agent is connected (true) or gone (false); unknown counts as connected. */
  connected?: boolean;
  limit: number;
  /** The `nextCursor` of the page before; absent for the first page. */
  cursor?: string;
  /**
   * Now (ms), for the urgency inferred as on the machine (a blocked agent's long wait raises
   * it). The first page's time travels in its cursor and ranks every later page, so a request
   * whose urgency rises between two pages still shows once. Absent: the urgencies inferred
   * when each was filed.
   */
  now?: number;
}

/**
 * One page of the team's requests for `gatehouse --hub URL list`: the waiting ones in the
 * review queue's order (what needs a person first, as on every surface), or the history
 * newest first. Paged by keyset (the sort key of the last row shown, then request and
 * machine id so the order is total), so any number of requests lists, each once, even while
 * new ones arrive between pages.
 */
export async function hubRequestPage(
  sql: Sql,
  o: HubRequestPageQuery,
): Promise<{ requests: HubRequest[]; total: number; nextCursor?: string }> {
  const params = [o.waiting, o.machineId ?? null, o.agent ?? null, o.connected ?? null];
  const [count] = await sql.query<{ n: string | number }>(
    `SELECT COUNT(*) AS n FROM requests r WHERE ${FILTERS}`,
    params,
  );
  const total = num(count?.n ?? 0);
  const waiting = o.waiting ? waitingCursor(o) : undefined;
  const rows = waiting
    ? await waitingRows(sql, o, params, waiting)
    : await historyRows(sql, o, params);
  const more = rows.length > o.limit;
  const shown = rows.slice(0, o.limit);
  const last = shown.at(-1);
  const nextCursor =
    more && last
      ? encodeCursor(
          waiting
            ? [num(last.rank), last.record.createdAt, last.request_id, last.machine_id, waiting.now]
            : [num(last.created_at), last.request_id, last.machine_id],
        )
      : undefined;
  return { requests: shown.map(toRequest), total, ...(nextCursor ? { nextCursor } : {}) };
}

type PageRow = HubRequestRow & { rank: string | number };

/** The waiting queue's cursor, if any, and the time every page of it ranks at. */
function waitingCursor(o: HubRequestPageQuery): {
  after?: [number, string, string, string];
  now: number;
} {
  if (!o.cursor) return { now: o.now ?? 0 };
  const [rank, filed, requestId, machineId, now] = decodeCursor(o.cursor, WaitingKey);
  return { after: [rank, filed, requestId, machineId], now: now ?? o.now ?? 0 };
}

/** The waiting queue after the cursor: highest rank first, then oldest filed. One more than a page. */
async function waitingRows(
  sql: Sql,
  o: HubRequestPageQuery,
  params: (string | boolean | null)[],
  { after, now }: ReturnType<typeof waitingCursor>,
): Promise<PageRow[]> {
  return sql.query<PageRow>(
    `SELECT * FROM (SELECT r.*, m.name, ${RANK} AS rank, ${FILED} AS filed
       FROM requests r JOIN machines m USING (machine_id) WHERE ${FILTERS}) r
     WHERE $6::int IS NULL OR r.rank < $6::int OR (r.rank = $6::int AND (r.filed, r.request_id COLLATE "C", r.machine_id COLLATE "C") > ($7::text COLLATE "C", $8::text COLLATE "C", $9::text COLLATE "C"))
     ORDER BY r.rank DESC, r.filed, r.request_id COLLATE "C", r.machine_id COLLATE "C" LIMIT $5`,
    [...params, o.limit + 1, ...(after ?? [null, null, null, null]), now],
  );
}

/** The history after the cursor: newest first. One more than a page. */
async function historyRows(
  sql: Sql,
  o: HubRequestPageQuery,
  params: (string | boolean | null)[],
): Promise<PageRow[]> {
  const after = o.cursor ? decodeCursor(o.cursor, HistoryKey) : undefined;
  return sql.query<PageRow>(
    `SELECT r.*, m.name, 0 AS rank FROM requests r JOIN machines m USING (machine_id)
     WHERE ${FILTERS} AND ($6::bigint IS NULL
       OR (r.created_at, r.request_id COLLATE "C", r.machine_id COLLATE "C") < ($6::bigint, $7::text COLLATE "C", $8::text COLLATE "C"))
     ORDER BY r.created_at DESC, r.request_id COLLATE "C" DESC, r.machine_id COLLATE "C" DESC LIMIT $5`,
    [...params, o.limit + 1, ...(after ?? [null, null, null])],
  );
}

/** Every machine's request with this id (ids are random, so almost always one). */
export async function hubRequestsById(sql: Sql, requestId: string): Promise<HubRequest[]> {
  const rows = await sql.query<HubRequestRow>(
    `SELECT r.*, m.name FROM requests r JOIN machines m USING (machine_id)
     WHERE r.request_id = $1 ORDER BY m.name`,
    [requestId],
  );
  return rows.map(toRequest);
}
