import { WAITING_STATUSES } from '../../shared/domain';

/**
 * The statuses of shared/domain.ts's WAITING_STATUSES as an SQL list: `('pending', 'timed_out')`.
 * They are fixed identifiers of the domain, never input, so they are written into the SQL; the
 * partial indexes over waiting requests (migrations 001, 004, 010) are written with the same
 * list, and SQLite uses such an index only for a query that repeats its condition.
 */
const WAITING_LIST = `(${WAITING_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** A request row waits for a person: the one SQL form of "waiting for you". */
export const WAITING_SQL = `status IN ${WAITING_LIST}`;

/** A request row no longer waits for a person (decided, cancelled or abandoned). */
export const NOT_WAITING_SQL = `status NOT IN ${WAITING_LIST}`;
