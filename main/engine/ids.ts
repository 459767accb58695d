import { randomBytes } from 'node:crypto';

/** Makes ids for new records. Injected so tests get predictable ids. */
export type IdSource = (prefix: 'req' | 'ses' | 'rul' | 'gra') => string;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Short random ids a person can type (`gatehouse approve req-7k2m9x4q1d`): ten characters of
 * Crockford base32 are 50 bits, plenty for one user's queue.
 */
export const randomIds: IdSource = (prefix) => {
  const bytes = randomBytes(10);
  let s = '';
  for (const b of bytes) s += ALPHABET[b & 31];
  return `${prefix}-${s}`;
};

/** Sequential ids for tests. */
export function sequentialIds(): IdSource {
  let n = 0;
  return (prefix) => `${prefix}-${String(++n).padStart(4, '0')}`;
}
