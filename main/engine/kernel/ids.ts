/** Makes ids for new records. Injected so tests get predictable ids. */
export type IdSource = (prefix: 'req' | 'ses' | 'rul' | 'gra') => string;

/**
 * A uniformly random integer in `[0, limit)`. Injected by the composition root (Node's
 * `crypto.randomInt` there) so that the engine itself imports nothing of Node.
 */
export type RandomBelow = (limit: number) => number;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const COUNTER_BITS = 10;
const COUNTER_LIMIT = 2 ** COUNTER_BITS;
const TIME_MODULUS = 2 ** 40;

function base32(value: number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) {
    s = ALPHABET[value % 32]! + s;
    value = Math.floor(value / 32);
  }
  return s;
}

/**
 * Short, time-ordered ids a person can still type (`gatehouse approve req-1k2m9x4q1d`): ten
 * characters of Crockford base32, 40 bits of milliseconds then a 10-bit counter that starts
 * at a random value each millisecond. Time order matters: the store keys requests by the
 * number an id encodes ({@link idOrdinal}), and finds a session's requests by that order.
 *
 * Ids never go back, not even when the clock does: within the process the last millisecond
 * used is kept, and `after` (the newest id already stored) carries that across a restart.
 */
export function timeOrderedIds(
  now: () => number,
  randomBelow: RandomBelow,
  after?: string,
): IdSource {
  const newest = after === undefined ? undefined : idOrdinal(after);
  let lastMs = newest === undefined ? -1 : Math.floor(newest / COUNTER_LIMIT);
  let counter = newest === undefined ? 0 : newest % COUNTER_LIMIT;
  return (prefix) => {
    let ms = now() % TIME_MODULUS;
    if (ms <= lastMs) {
      ms = lastMs;
      counter++;
      if (counter >= COUNTER_LIMIT) {
        ms = lastMs + 1;
        counter = randomBelow(COUNTER_LIMIT / 2);
      }
    } else {
      counter = randomBelow(COUNTER_LIMIT / 2);
    }
    lastMs = ms;
    return `${prefix}-${base32(ms, 8)}${base32(counter, 2)}`;
  };
}

/**
 * The number an id's suffix spells in the ids' base32 alphabet, which orders ids as they were
 * made; undefined for a string that is not shaped like one of our ids.
 */
export function idOrdinal(id: string): number | undefined {
  const dash = id.indexOf('-');
  const suffix = id.slice(dash + 1);
  // Ten characters are 50 bits: still an exact integer in a double.
  if (dash < 1 || suffix.length === 0 || suffix.length > 10) return undefined;
  let value = 0;
  for (const char of suffix) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 32 + digit;
  }
  return value;
}

/** Sequential ids for tests. */
export function sequentialIds(): IdSource {
  let n = 0;
  return (prefix) => `${prefix}-${String(++n).padStart(4, '0')}`;
}
