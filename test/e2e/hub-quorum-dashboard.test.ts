import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type WatchedPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { hubRequestRow as row, openSignedIn } from '../support/hub-page';
import { QuorumStage } from '../support/hub-quorum-stage';
import { confirmPageSession } from '../support/hub-second-factor';
import { SCREENSHOTS } from './harness';

/**
 * A team rule on the team dashboard, in chromium: `deploy` on a `prod` project needs two
 * approvals from `ops`. A member sees the rule and where its quorum stands, approves once
 * (session and always are not offered), and then sees it read-only because a person counts
 * once; someone outside ops sees no buttons and why; an admin sees the groups.
 */
describe('team rules on the team dashboard (a real browser)', () => {
  let stage: QuorumStage;
  let browser: Browser;
  let requestId: string;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    stage = await QuorumStage.start({
      database: 'quorum_web',
      people: ['ann'],
      ops: ['ann'],
      project: '/srv/prod',
    });
    void stage.agent
      .request({ action: 'deploy', description: 'deploy web to prod' })
      .catch(() => undefined);
    requestId = (await waitForPending(stage.admin, (r) => r.description === 'deploy web to prod'))
      .requestId;
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    for (const p of pages) await p.context.close().catch(() => undefined);
    await browser?.close();
    await stage?.stop();
  });

  const signedIn = (link: string) => openSignedIn(browser, link, pages);

  async function openRequest(page: Page): Promise<void> {
    await expect.poll(() => row(page, requestId).count(), { timeout: 20_000 }).toBe(1);
    await row(page, requestId).getByTestId('hub-request-open').click();
  }

  it('a member of ops sees the rule, approves once, and then sees it read-only: a person counts once', async () => {
    const link = (await stage.hub.cli(['user', 'link', 'ann'])).stdout.split('\n')[1]!.trim();
    const { page, problems } = await signedIn(link);
    await openRequest(page);
    expect(await page.getByTestId('hub-team-rule').textContent()).toMatch(
      /^Team rule tr_[0-9a-f]{12}: action deploy, project prod: 2 approvals from ops\. 0 of 2 approvals so far\.$/,
    );
    await page.getByTestId('hub-approve-once').waitFor();
    // Once only: a session or always rule on the machine would let later deploys skip the team.
    expect(await page.getByTestId('hub-approve-session').count()).toBe(0);
    expect(await page.getByTestId('hub-approve-always').count()).toBe(0);
    await page.getByTestId('hub-approve-once').click();
    await expect
      .poll(
        () =>
          page
            .getByTestId('hub-read-only')
            .textContent()
            .catch(() => ''),
        { timeout: 20_000 },
      )
      .toBe('Read-only: you already voted (approve); a person counts once.');
    expect(await page.getByTestId('hub-decide').count()).toBe(0);
    expect(await page.getByTestId('hub-team-rule').textContent()).toContain(
      '1 of 2 approvals so far',
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'hub-quorum-voted.png') });
    expect((await stage.admin.call('request.get', { requestId })).request.status).toBe('pending');
    expect(problems).toEqual([]);
  });

  it('someone outside ops sees no decision buttons, and why', async () => {
    const { page } = await signedIn(await stage.hub.signInLink('carl'));
    await openRequest(page);
    await page.getByTestId('hub-read-only').waitFor();
    expect(await page.getByTestId('hub-read-only').textContent()).toMatch(
      /^Read-only: only ops may decide this request \(team rule tr_[0-9a-f]{12}\); carl is not in it\.$/,
    );
    expect(await page.getByTestId('hub-decide').count()).toBe(0);
  });

  it('an admin sees the groups and who is in them, read-only', { timeout: 60_000 }, async () => {
    const { page } = await signedIn(await stage.hub.signInLink('root', 'admin'));
    // An admin's session is confirmed with a passkey first (test/e2e/hub-passkeys.test.ts):
    // marked so in the database, then the page loaded again.
    await confirmPageSession(page, stage.dbUrl);
    await page.getByTestId('hub-nav-people').click();
    await expect
      .poll(() => page.getByTestId('hub-group').allTextContents(), { timeout: 20_000 })
      .toEqual(['opsann']);
  });
});
