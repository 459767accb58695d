import type Database from 'better-sqlite3';
import { idOrdinal, timeOrderedIds } from '../../main/engine/kernel/ids';
import {
  INDEX_TAIL_STATEMENTS,
  TAIL_ROWS,
  countRequestTail,
  indexRequestTail,
} from '../../main/store/request-key-index';

export interface SeededSession {
  sessionId: string;
  /** Another session, active at the same time, whose requests come between this one's. */
  otherSessionId: string;
  /** The seeded session's request ids, oldest first. */
  requestIds: string[];
}

/**
 * Writes a long agent session straight into a migrated database (fast: one transaction of
 * plain SQL): `requests` requests and `logs` transcript rows, one every second from
 * `startedAt`, with a request of another session after every third of its own. Every fifth
 * request waited for a person and was denied; every seventh was approved by one; the rest
 * policy allowed.
 *
 * The requests' key entries (main/store/request-key-index.ts) are written as the daemon writes
 * them, every TAIL_ROWS requests, in a database that has their tables (migration 019);
 * `indexKeys: false` leaves them all in the tail; `'agent'` writes only the agents' table (what
 * filing costs without a session's index, bench/session-detail.bench.mjs).
 */
export function seedLongSession(
  db: Database.Database,
  o: {
    startedAt: number;
    requests: number;
    logs: number;
    agent?: string;
    indexKeys?: boolean | 'agent';
  },
): SeededSession {
  const agent = o.agent ?? 'long-runner';
  // The engine's own ids, made at the times the rows say.
  let at = o.startedAt;
  const ids = timeOrderedIds(
    () => at,
    () => 0,
  );
  const idAt = (prefix: 'req' | 'ses', ms: number) => {
    at = ms;
    const id = ids(prefix);
    return { id, key: idOrdinal(id)! };
  };
  const sessionId = idAt('ses', o.startedAt).id;
  const otherSessionId = idAt('ses', o.startedAt).id;
  const insertSession = db.prepare(`INSERT INTO sessions
    (session_id, agent, project, status, started_at, last_seen_at, requests_from, cost_usd)
    VALUES (?, ?, '/work/long', 'active', ?, ?, 0, 0)`);
  const insertRequest = db.prepare(`INSERT INTO requests
    (request_key, request_id, session_id, agent, action, description, urgency, fingerprint,
     status, tier, rule, rule_reason, created_at, decided_at, decided_by, scope, reason)
    VALUES (?, ?, ?, ?, ?, ?, 'normal', ?, ?, ?, ?, 'seeded', ?, ?, ?, ?, ?)`);
  const insertLog = db.prepare(`INSERT INTO transcript (session_id, at, kind, text, data_json)
    VALUES (?, ?, 'log', ?, '{"type":"step"}')`);
  const requestIds: string[] = [];
  const indexKeys =
    o.indexKeys ??
    db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'request_keys_mark'`).get() !== undefined;
  // Counted on from what earlier seeds left, as the daemon counts at its start: seeded one
  // session at a time, a history must not be left all in the tail (every read of a session
  // would walk it), which the daemon never leaves.
  let tail = indexKeys ? countRequestTail(db) : 0;
  const filed = () => {
    if (indexKeys && ++tail >= TAIL_ROWS) {
      if (indexKeys === 'agent') {
        const upTo = db.prepare('SELECT MAX(request_key) FROM requests').pluck().get();
        for (const sql of INDEX_TAIL_STATEMENTS.slice(1)) db.prepare(sql).run({ upTo });
      } else indexRequestTail(db);
      tail = 0;
    }
  };
  db.transaction(() => {
    insertSession.run(sessionId, agent, o.startedAt, o.startedAt);
    insertSession.run(otherSessionId, 'bystander', o.startedAt, o.startedAt);
    let other = 0;
    for (let i = 0; i < Math.max(o.requests, o.logs); i++) {
      const time = o.startedAt + 1000 + i * 1000;
      if (i < o.requests) {
        const { id, key } = idAt('req', time);
        const denied = i % 5 === 0;
        const human = denied || i % 7 === 0;
        insertRequest.run(
          key,
          id,
          sessionId,
          agent,
          'run_command',
          `step ${i}`,
          `fp-${i % 40}`,
          denied ? 'denied' : 'approved',
          human ? 'ask' : 'auto',
          human ? 'default:run_command' : 'default:auto',
          time,
          human ? time + 200 : time,
          human ? 'human' : 'policy',
          human && !denied ? 'once' : null,
          denied ? `no ${i}` : null,
        );
        requestIds.push(id);
        filed();
        if (i % 3 === 2) {
          other++;
          const b = idAt('req', time);
          insertRequest.run(
            b.key,
            b.id,
            otherSessionId,
            'bystander',
            'read_file',
            `bystander ${other}`,
            'fp-b',
            'approved',
            'auto',
            'default:auto',
            time,
            time,
            'policy',
            null,
            null,
          );
          filed();
        }
      }
      if (i < o.logs) insertLog.run(sessionId, time + 500, `did step ${i}`);
    }
  })();
  return { sessionId, otherSessionId, requestIds };
}
