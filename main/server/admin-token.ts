import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * The admin token file (mode 0600, created at first start). Whoever can read it may decide
 * requests: the CLI reads it; agents are expected not to (see docs/security.md).
 */
export function ensureAdminToken(file: string): string {
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 32) {
      chmodSync(file, 0o600);
      return token;
    }
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Compares secrets in constant time, length included: both sides are hashed to 32 bytes
 * first, so neither an early return on a length mismatch nor the comparison's duration says
 * how long the secret is.
 */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}
