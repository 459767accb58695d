import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';

/**
 * Cursors of the paged lists: a page ends at a row, and the next page starts
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

/**
 * One page from rows read with `LIMIT limit + 1`: the first `limit` of them, mapped, and a
 * cursor after the last when the extra row shows that more follow.
 */
export function pageOf<Row, Item>(
  rows: readonly Row[],
  limit: number,
  map: (row: Row) => Item,
  cursorOf: (last: Row) => number[],
  total: number,
): { items: Item[]; total: number; nextCursor?: string } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(map),
    total,
    ...(rows.length > limit && last ? { nextCursor: encodeCursor(...cursorOf(last)) } : {}),
  };
}
