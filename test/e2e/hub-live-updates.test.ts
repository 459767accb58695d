import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { GatehouseClient } from '../../clients/sdk/client';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser';
import { waitForPending, type TestDaemon } from '../support/daemon';
import { freePort } from '../support/free-port';
import { TestHub } from '../support/hub';
import { startJoinedMachine } from '../support/hub-machine';
import { hubRequestRow as row, signInHub } from '../support/hub-page';
import { TestPostgres } from '../support/postgres';
import { Teardown } from '../support/teardown';

/** Every `requests.list` call the page makes, with when it was made. */
function countLoads(page: Page): { times: number[] } {
  const seen = { times: [] as number[] };
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/web/api/requests.list') seen.times.push(Date.now());
  });
  return seen;
}

/**
 * Live updates on the team dashboard, for real: two hub replicas on one PostgreSQL, a daemon
 * joined to replica B, a browser signed in on replica A. What the machine publishes through B
 * reaches the page on A through PostgreSQL's NOTIFY and A's event stream, without the page
 * polling; a page whose replica went away catches up when it is back.
 */
describe('the team dashboard is live', () => {
  const teardown = new Teardown();
  let a: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  let browser: Browser;
  let watched: WatchedPage;
  let loads: { times: number[] };

  beforeAll(async () => {
    const pg = await TestPostgres.start();
    teardown.add(() => pg.stop());
    const url = pg.createDatabase('live');
    a = await TestHub.start({ databaseUrl: url, port: await freePort() });
    teardown.add(() => a.stop());
    const b = await TestHub.start({ databaseUrl: url, sameHubAs: a });
    teardown.add(() => b.stop());
    ({ daemon, admin, agent } = await startJoinedMachine(
      b,
      { machine: 'devbox', agent: 'agent-1', project: '/work/live' },
      teardown,
    ));
    browser = await launchBrowser();
    teardown.add(() => browser.close());
    watched = await openPage(browser);
    teardown.add(() => watched.context.close().catch(() => undefined));
    loads = countLoads(watched.page);
    const link = await a.signInLink('ann', 'approver');
    const streamOpen = watched.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/web/events',
    );
    await signInHub(watched, link);
    expect((await streamOpen).status()).toBe(200);
  }, 240_000);
  afterAll(() => teardown.run());

  it('a request published through replica B shows on replica A within a second, without polling', async () => {
    const { page } = watched;
    await page.getByTestId('hub-empty').waitFor();
    // The stream's first event (its catch-up) reloads once; then the page is quiet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Idle for longer than the fallback's interval: the page makes no call at all.
    const idleFrom = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(loads.times.filter((t) => t >= idleFrom)).toEqual([]);

    const filedAt = Date.now();
    void agent.request({ action: 'git_push', description: 'push from the devbox' });
    const { requestId } = await waitForPending(
      admin,
      (r) => r.description === 'push from the devbox',
    );
    await row(page, requestId).waitFor({ timeout: 5_000 });
    const shownAfterMs = Date.now() - filedAt;
    console.log(
      `hub live: filed on the machine to shown on the other replica in ${shownAfterMs} ms`,
    );
    expect(shownAfterMs).toBeLessThan(1_000);
    // Only the reloads the events caused: a handful, not a poll every 2 s.
    expect(loads.times.filter((t) => t >= filedAt).length).toBeLessThanOrEqual(3);

    // The machine's own decision travels the same way: the row leaves the pending list.
    expect((await daemon.cli(['deny', requestId, '--reason', 'not now'])).code).toBe(0);
    // Timed from the CLI's return (starting the CLI process is not the hub's time).
    const decidedAt = Date.now();
    await expect.poll(() => row(page, requestId).count(), { timeout: 5_000 }).toBe(0);
    const goneAfterMs = Date.now() - decidedAt;
    console.log(
      `hub live: decided on the machine to gone from the other replica in ${goneAfterMs} ms`,
    );
    expect(goneAfterMs).toBeLessThan(1_500);
    expect(watched.problems).toEqual([]);
  });

  it('the stream needs the session cookie and the page’s own origin', async () => {
    const none = await fetch(`${a.url}/web/events`);
    expect(none.status).toBe(401);
    const [cookie] = await watched.context.cookies(a.url);
    const crossSite = await fetch(`${a.url}/web/events`, {
      headers: { cookie: `${cookie!.name}=${cookie!.value}`, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const forged = await fetch(`${a.url}/web/events`, {
      headers: { cookie: `${cookie!.name}=${'x'.repeat(43)}` },
    });
    expect(forged.status).toBe(401);
  });

  it('a stream ends when its session signs out', async () => {
    const page = await openPage(browser);
    await page.page.goto(await a.signInLink('sam', 'viewer'));
    await page.page.getByTestId('hub-app').waitFor();
    const [cookie] = await page.context.cookies(a.url);
    const stream = await fetch(`${a.url}/web/events`, {
      headers: { cookie: `${cookie!.name}=${cookie!.value}` },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry:');
    await page.page.getByTestId('hub-sign-out').click();
    // Read until the replica ends the stream.
    for (;;) if ((await reader.read()).done) break;
    await page.context.close();
  });

  it('a page whose replica was killed catches up on what it missed when the replica is back', async () => {
    const { page } = watched;
    await a.signal('SIGKILL');
    void agent.request({ action: 'send_email', description: 'mail while A was down' });
    const { requestId } = await waitForPending(
      admin,
      (r) => r.description === 'mail while A was down',
    );
    await a.launch();
    await row(page, requestId).waitFor({ timeout: 15_000 });
    // Back on the stream: the page stops polling again.
    await expect
      .poll(
        async () => {
          const from = Date.now();
          await new Promise((resolve) => setTimeout(resolve, 2_500));
          return loads.times.filter((t) => t >= from).length;
        },
        { timeout: 20_000 },
      )
      .toBe(0);
  });
});
