import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Compares secrets in constant time, length included: both sides are hashed to 32 bytes
 * first, so neither an early return on a length mismatch nor the comparison's duration says
 * how long the secret is. For every secret Gatehouse checks: the admin token, the dashboard's
 * secret and cookies, decision tokens and forms.
 */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}
