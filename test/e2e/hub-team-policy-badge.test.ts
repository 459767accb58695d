import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser';
import { TestDaemon } from '../support/daemon';
import { joinHub, TestHub } from '../support/hub';
import { TestPostgres } from '../support/postgres';

/**
 * A joined machine's own dashboard names the team policy version it runs, in the hub badge,
 * and follows a new publish (real hub on PostgreSQL, real daemon, chromium).
 */
describe("the machine's dashboard shows its team policy version", () => {
  let pg: TestPostgres;
  let hub: TestHub;
  let daemon: TestDaemon;
  let browser: Browser;
  let local: WatchedPage | undefined;

  beforeAll(async () => {
    pg = await TestPostgres.start();
    hub = await TestHub.start({ databaseUrl: pg.createDatabase('team_badge') });
    daemon = await TestDaemon.start();
    await joinHub(daemon, hub, 'laptop');
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await local?.context.close();
    await browser?.close();
    await daemon?.stop();
    await hub?.stop();
    pg?.stop();
  });

  it('no version before a publish; the version and its rules after', async () => {
    local = await openPage(browser);
    await local.page.goto(daemon.dashboardUrl!);
    const badge = local.page.getByTestId('joined-hub');
    await badge.waitFor();
    expect(await local.page.getByTestId('team-policy-version').count()).toBe(0);
    for (const args of [
      ['add', 'git_push', '--tier', 'ask'],
      ['add', 'deploy', '--tier', 'deny', '--shadow'],
      ['publish'],
    ])
      expect((await hub.cli(['policy', ...args])).code).toBe(0);
    // The badge reads `status` every few seconds.
    await expect
      .poll(() => local!.page.getByTestId('team-policy-version').textContent(), {
        timeout: 30_000,
      })
      .toBe(' · team policy v1');
    expect(await badge.getAttribute('title')).toContain('team policy v1: 1 enforced, 1 in shadow');
    expect(local.problems).toEqual([]);
  }, 60_000);
});
