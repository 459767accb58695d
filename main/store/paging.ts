import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';

/**
 * Cursors of the paged lists (issue 14): a page ends at a row, and the next page starts
 * strictly after it in the list's order. A cursor is the ordering columns of that row, as
 * integers joined by `:`; clients pass it back unread.
 */

/** The integers a cursor holds, or undefined for none; a malformed cursor is refused. */
export function decodeCursor(cursor: string | undefined, parts: number): number[] | undefined {
  if (cursor === undefined) return undefined;
  const values = cursor.split(':').map(Number);
  if (values.length < 1 || values.length > parts || !values.every(Number.isSafeInteger))
    throw new GatehouseError(ErrorCode.InvalidParams, `invalid cursor "${cursor}"`);
  return values;
}

export const encodeCursor = (...values: number[]): string => values.join(':');
