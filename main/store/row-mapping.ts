/** Helpers that turn SQLite rows (snake_case, NULLs, JSON text) into records and back. */

export const orUndefined = <T>(v: T | null | undefined): T | undefined =>
  v === null ? undefined : v;

export const parseJson = <T>(text: unknown): T | undefined =>
  typeof text === 'string' ? (JSON.parse(text) as T) : undefined;

export const toJson = (value: unknown): string | null =>
  value === undefined ? null : JSON.stringify(value);

const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Builds `SET a = @a, b = @b` and its bound values for a partial update. Keys in
 * `jsonKeys` are stored as JSON text under `<snake>_json` columns.
 */
export function updateClause(
  patch: Record<string, unknown>,
  jsonKeys: readonly string[] = [],
): { sql: string; values: Record<string, unknown> } {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    const isJson = jsonKeys.includes(key);
    const column = isJson ? `${snake(key)}_json` : snake(key);
    sets.push(`${column} = @${key}`);
    values[key] = isJson ? toJson(value) : value === undefined ? null : value;
  }
  return { sql: sets.join(', '), values };
}
