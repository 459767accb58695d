import type { Migration } from './migration';

/**
 * The indexes that make every list's first page and start-up independent of history.
 * Each is chosen so the writes an auto-approved request makes stay small:
 * - `requests_waiting`: the review queue in queue order (pending.list, its count). Partial,
 *   so a request settled as it is filed never touches it.
 * - `requests_deadline`: the next wait to time out, so start-up arms one timer instead of
 *   reading every waiting request. Partial as well.
 * - `requests_by_agent`: requests.query and the audit trail's request entries by agent,
 *   newest first (the rowid, request_key, is the index's tail).
 * - `requests_audit`: the requests that are their own audit entry (migration 005), newest
 *   entry first, so the audit trail's first page does not walk the waiting requests.
 * - `audit_by_agent`, `audit_by_session`, `audit_by_type`, `audit_by_request`: audit.query
 *   filtered, newest first (seq is the rowid, the tail of each index).
 * - `audit_by_at`: exports of a time range.
 * - `sessions_by_start`: sessions.list newest first.
 */
export const migration010: Migration = {
  version: 10,
  name: 'list-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX requests_waiting ON requests(created_at) WHERE status IN ('pending', 'timed_out');
      CREATE INDEX requests_deadline ON requests(timeout_at) WHERE status = 'pending' AND timeout_at IS NOT NULL;
      CREATE INDEX requests_by_agent ON requests(agent);
      CREATE INDEX requests_audit ON requests(audit_seq) WHERE audit_seq IS NOT NULL;
      CREATE INDEX audit_by_agent ON audit(agent) WHERE agent IS NOT NULL;
      CREATE INDEX audit_by_session ON audit(session_id) WHERE session_id IS NOT NULL;
      CREATE INDEX audit_by_type ON audit(type);
      CREATE INDEX audit_by_request ON audit(request_id) WHERE request_id IS NOT NULL;
      CREATE INDEX audit_by_at ON audit(at);
      CREATE INDEX sessions_by_start ON sessions(started_at);
    `);
  },
};
