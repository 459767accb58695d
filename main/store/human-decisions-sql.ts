import { BY_PERSON_SQL } from './decided-by-sql';

/**
 * What rule suggestions read of a person's decisions (main/engine/policy/rule-suggestions.ts),
 * through requests_human_decided (migration 026).
 */

/**
 * The columns read of a decision (no context, rationale, message, …), its pattern and the
 * directory its call ran in.
 */
export const HUMAN_DECIDED_COLUMNS = `request_id, session_id, agent, project, action,
  description, urgency, target, command, paths_json, fingerprint, status, tier, rule,
  rule_reason, created_at, decided_at, decided_by, decided_via, scope, draft_pattern, run_dir`;

/**
 * Newest first: the reverse of the index's order, ties included, so the full scan and a
 * session's scan list the same decisions in one order.
 */
export const HUMAN_ORDER = `decided_at DESC, session_id DESC, status DESC, draft_pattern DESC,
  request_key DESC`;

/** The newest `@limit` decisions, every column of the index's own. */
export const HUMAN_WINDOW = `SELECT request_key, session_id, status, draft_pattern, decided_at
  FROM requests INDEXED BY requests_human_decided WHERE ${BY_PERSON_SQL}
  ORDER BY ${HUMAN_ORDER} LIMIT @limit`;

/** The newest `@limit` decisions as rows. */
export const HUMAN_DECISIONS = `SELECT ${HUMAN_DECIDED_COLUMNS} FROM requests
  INDEXED BY requests_human_decided WHERE ${BY_PERSON_SQL} ORDER BY ${HUMAN_ORDER}
  LIMIT @limit`;

/**
 * Of the same decisions, those whose pattern an approval in session `@sessionId` has: all a
 * suggestion of the session is counted from. The window is read on the index alone and its
 * patterns compared inside SQLite; whole rows are read only for the decisions kept (a few
 * dozen of ten thousand, when a session ends).
 */
export const SESSION_PATTERN_DECISIONS = `WITH newest AS MATERIALIZED (${HUMAN_WINDOW})
  SELECT ${HUMAN_DECIDED_COLUMNS.replace(/(\w+)/g, 'requests.$1')}
  FROM newest JOIN requests ON requests.request_key = newest.request_key
  WHERE newest.draft_pattern IN (SELECT draft_pattern FROM newest
    WHERE session_id = @sessionId AND status = 'approved')
  ORDER BY ${HUMAN_ORDER.replace(/(\w+) DESC/g, 'newest.$1 DESC')}`;
