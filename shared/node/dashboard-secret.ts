import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { replaceFileSync } from './replace-file';

/** The dashboard secret: a file in GATEHOUSE_HOME (0600), the same across restarts. */
export const dashboardSecretPath = (home: string): string => join(home, 'dashboard.secret');

/**
 * Writes a new dashboard secret, signing every browser out. The CLI
 * (`gatehouse dashboard --rotate-secret`) and the daemon (main/server/dashboard-sessions.ts)
 * both own the file; the daemon reads it again when it changes. A new file is renamed over
 * the old, so a reader sees the old secret or the new, never half.
 */
export function rotateDashboardSecret(file: string): string {
  const secret = randomBytes(32).toString('base64url');
  replaceFileSync(file, `${secret}\n`);
  return secret;
}
