import { randomBytes } from 'node:crypto';

/** Makes ids for new records. Injected so tests get predictable ids. */
export type IdSource = (prefix: 'req' | 'ses' | 'rul' | 'gra') => string;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Short random ids a person can type (`gatehouse approve req-7k2m9x4q1d`): ten characters of
 * Crockford base32 are 50 bits, plenty for one user's queue.
 */
// Random bytes are drawn in blocks: one system call per 409 ids instead of one per id.
let pool = randomBytes(4096);
let offset = 0;

export const randomIds: IdSource = (prefix) => {
  if (offset + 10 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  let s = '';
  for (let i = 0; i < 10; i++) s += ALPHABET[pool[offset + i]! & 31];
  offset += 10;
  return `${prefix}-${s}`;
};

/** Sequential ids for tests. */
export function sequentialIds(): IdSource {
  let n = 0;
  return (prefix) => `${prefix}-${String(++n).padStart(4, '0')}`;
}
