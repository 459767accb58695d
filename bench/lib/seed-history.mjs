// Fills a Gatehouse database with a long history, fast: sessions, requests (some still
// waiting) and audit rows, written with plain SQL in one transaction against the schema the
// migrations built. Ids follow main/engine/kernel/ids.ts (time-ordered base32, the request key is the
// number the id spells), so the daemon reads them as its own.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(value, length) {
  let s = '';
  for (let i = 0; i < length; i++) {
    s = ALPHABET[value % 32] + s;
    value = Math.floor(value / 32);
  }
  return s;
}

/** Ids carry 40 bits of milliseconds (main/engine/kernel/ids.ts): the time wraps at 2^40. */
const TIME_MODULUS = 2 ** 40;

/** An id of `prefix` made at `ms` with `counter`, and the request key it spells. */
function idAt(prefix, ms, counter) {
  const wrapped = ms % TIME_MODULUS;
  return {
    id: `${prefix}-${base32(wrapped, 8)}${base32(counter, 2)}`,
    key: wrapped * 1024 + counter,
  };
}

const ACTIONS = ['git_push', 'send_email', 'deploy', 'read_file', 'run_command', 'http_request'];
const AGENTS = ['release-bot', 'triage', 'docs-writer', 'refactor', 'ci-fixer', 'scraper'];
const AUDIT_TYPES = ['classify', 'request.decided', 'session.started', 'usage', 'guard.warned'];

/**
 * Writes `sessions` sessions, `requests` requests (the newest `pending` of them waiting) and
 * `audit` audit rows spread over the last `days` days before `now`.
 */
export function seedHistory(db, { now, days, sessions, requests, pending, audit }) {
  const span = days * 86_400_000;
  const start = now - span;
  const insertSession = db.prepare(`INSERT INTO sessions
    (session_id, agent, project, status, started_at, ended_at, last_seen_at, requests_from, cost_usd)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertRequest = db.prepare(`INSERT INTO requests
    (request_key, request_id, session_id, agent, project, action, description, urgency, command,
     fingerprint, status, tier, rule, rule_reason, created_at, timeout_at, decided_at, decided_by,
     scope, reason)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertAudit = db.prepare(`INSERT INTO audit
    (seq, at, type, session_id, agent, request_id, data_json) VALUES (?, ?, ?, ?, ?, ?, ?)`);

  const sessionRows = [];
  for (let s = 0; s < sessions; s++) {
    const at = start + Math.floor((s / sessions) * span);
    const { id } = idAt('ses', at, s % 1024);
    sessionRows.push({ id, agent: AGENTS[s % AGENTS.length], at });
  }
  db.transaction(() => {
    // Every session's requests come after its start, so requests_from 0 is always right.
    for (const s of sessionRows) {
      const live = s.at > now - 3_600_000;
      insertSession.run(
        s.id,
        s.agent,
        `/work/${s.agent}`,
        live ? 'active' : 'completed',
        s.at,
        live ? null : s.at + 60_000,
        s.at + 60_000,
        0,
        0.5,
      );
    }
    for (let r = 0; r < requests; r++) {
      const at = start + Math.floor((r / requests) * span);
      const { id, key } = idAt('req', at, r % 1024);
      const session = sessionRows[Math.min(sessions - 1, Math.floor((r / requests) * sessions))];
      const waiting = r >= requests - pending;
      const action = ACTIONS[r % ACTIONS.length];
      const auto = !waiting && r % 3 === 0;
      insertRequest.run(
        key,
        id,
        session.id,
        session.agent,
        `/work/${session.agent}`,
        action,
        `${action} number ${r}`,
        r % 10 === 0 ? 'high' : 'normal',
        action === 'run_command' ? `make target-${r % 50}` : null,
        `fp-${action}-${r % 500}`,
        waiting ? 'pending' : auto ? 'approved' : r % 2 ? 'approved' : 'denied',
        auto ? 'auto' : 'ask',
        auto ? 'default:auto' : `default:${action}`,
        'seeded history',
        at,
        null,
        waiting ? null : at + 5_000,
        waiting ? null : auto ? 'policy' : 'human',
        waiting || auto ? null : 'once',
        null,
      );
    }
    for (let a = 0; a < audit; a++) {
      const at = start + Math.floor((a / audit) * span);
      const session = sessionRows[Math.min(sessions - 1, Math.floor((a / audit) * sessions))];
      const type = AUDIT_TYPES[a % AUDIT_TYPES.length];
      insertAudit.run(
        a + 1,
        at,
        type,
        session.id,
        session.agent,
        null,
        JSON.stringify({ action: ACTIONS[a % ACTIONS.length], tier: 'auto', n: a }),
      );
    }
    // The requests' key entries, as the daemon would have written them over time (the
    // statements of INDEX_TAIL_STATEMENTS in main/store/request-key-index.ts, over every row).
    db.exec(`
      INSERT OR IGNORE INTO session_request_keys (session_id, request_key)
        SELECT session_id, request_key FROM requests ORDER BY session_id, request_key;
      INSERT OR IGNORE INTO agent_request_keys (agent, request_key)
        SELECT agent, request_key FROM requests ORDER BY agent, request_key;
      UPDATE request_keys_mark
        SET through = MAX(through, COALESCE((SELECT MAX(request_key) FROM requests), through));
    `);
  })();
}
