import type Database from 'better-sqlite3';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(value: number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) {
    s = ALPHABET[value % 32]! + s;
    value = Math.floor(value / 32);
  }
  return s;
}

/** An id as main/engine/ids.ts makes them at `ms`, and the request key it spells. */
function idAt(prefix: string, ms: number, counter: number): { id: string; key: number } {
  const wrapped = ms % 2 ** 40;
  return {
    id: `${prefix}-${base32(wrapped, 8)}${base32(counter, 2)}`,
    key: wrapped * 1024 + counter,
  };
}

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
 */
export function seedLongSession(
  db: Database.Database,
  o: { startedAt: number; requests: number; logs: number; agent?: string },
): SeededSession {
  const agent = o.agent ?? 'long-runner';
  const sessionId = idAt('ses', o.startedAt, 1).id;
  const otherSessionId = idAt('ses', o.startedAt, 2).id;
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
  db.transaction(() => {
    insertSession.run(sessionId, agent, o.startedAt, o.startedAt);
    insertSession.run(otherSessionId, 'bystander', o.startedAt, o.startedAt);
    let other = 0;
    for (let i = 0; i < Math.max(o.requests, o.logs); i++) {
      const at = o.startedAt + 1000 + i * 1000;
      if (i < o.requests) {
        const { id, key } = idAt('req', at, 0);
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
          at,
          human ? at + 200 : at,
          human ? 'human' : 'policy',
          human && !denied ? 'once' : null,
          denied ? `no ${i}` : null,
        );
        requestIds.push(id);
        if (i % 3 === 2) {
          const b = idAt('req', at, 1 + (other++ % 1000));
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
            at,
            at,
            'policy',
            null,
            null,
          );
        }
      }
      if (i < o.logs) insertLog.run(sessionId, at + 500, `did step ${i}`);
    }
  })();
  return { sessionId, otherSessionId, requestIds };
}
