import type { Page } from 'playwright-core';
import { hashSecret } from '../../main/hub/hub-service';
import { HUB_SESSION_COOKIE } from '../../main/hub/hub-sessions';
import { openHubDatabase } from '../../main/hub/store/open-database';
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

/**
 * An admin's page, signed in with a link: its session marked confirmed in the hub's database
 * (`databaseUrl`), then the page loaded again, since the dashboard reads the session's passkey
 * state when it loads (it does not poll it).
 */
export async function confirmPageSession(page: Page, databaseUrl: string): Promise<void> {
  const cookie = (await page.context().cookies()).find((c) => c.name === HUB_SESSION_COOKIE);
  if (!cookie) throw new Error('the page holds no hub session cookie');
  const db = await openHubDatabase({ url: databaseUrl, dataDir: '' });
  await confirmSessionInDatabase(db, `${cookie.name}=${cookie.value}`).finally(() => db.close());
  await page.reload();
  await page.getByTestId('hub-app').waitFor();
}
