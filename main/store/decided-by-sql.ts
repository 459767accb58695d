import { decisionOf } from '../../shared/provenance';

/**
 * A request row a person decided, in SQL: `decided_by = 'human'`, the stored form of a
 * `person` provenance (shared/provenance.ts). A fixed word of the domain, never input, so it
 * is written into the SQL; the partial index requests_human_decided (migration 008) has the
 * same condition, and SQLite uses it only for a query that repeats it.
 */
export const BY_PERSON_SQL = `decided_by = '${decisionOf({ kind: 'person' }).decidedBy}'`;
