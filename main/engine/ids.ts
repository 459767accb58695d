import { randomInt } from 'node:crypto';

/** Makes ids for new records. Injected so tests get predictable ids. */
export type IdSource = (prefix: 'req' | 'ses' | 'rul' | 'gra') => string;

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
 * at a random value each millisecond. Time order matters: ids are primary keys, and random
 * keys made every insert dirty a different index page, which the WAL then writes whole.
 */
export function timeOrderedIds(now: () => number = Date.now): IdSource {
  let lastMs = -1;
  let counter = 0;
  return (prefix) => {
    let ms = now();
    if (ms <= lastMs) {
      ms = lastMs;
      counter++;
      if (counter >= COUNTER_LIMIT) {
        ms = lastMs + 1;
        counter = randomInt(COUNTER_LIMIT / 2);
      }
    } else {
      counter = randomInt(COUNTER_LIMIT / 2);
    }
    lastMs = ms;
    return `${prefix}-${base32(ms % TIME_MODULUS, 8)}${base32(counter, 2)}`;
  };
}

/** The ids of this process: one time-ordered sequence, so ids never repeat within it. */
export const processIds: IdSource = timeOrderedIds();

/** Sequential ids for tests. */
export function sequentialIds(): IdSource {
  let n = 0;
  return (prefix) => `${prefix}-${String(++n).padStart(4, '0')}`;
}
