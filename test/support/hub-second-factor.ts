import { hashSecret } from '../../main/hub/hub-service';
import { markSessionPasskey } from '../../main/hub/store/passkeys-repo';
import type { SqlDatabase } from '../../main/hub/store/sql';

/**
 * Marks a browser session (by its cookie, `gatehouse_hub_session=<id>`) as confirmed with a
 * passkey, in the hub's database, for tests about admin actions that are not about passkeys:
 * an admin's session needs that before any admin action. The ceremony itself runs in a real
 * browser with a virtual authenticator in test/e2e/hub-passkeys.test.ts.
 */
export async function confirmSessionInDatabase(db: SqlDatabase, cookie: string): Promise<void> {
  const sessionId = cookie.slice(cookie.indexOf('=') + 1);
  await markSessionPasskey(db, hashSecret(sessionId), Date.now());
}
