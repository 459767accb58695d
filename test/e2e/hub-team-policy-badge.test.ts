import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser';
import { startPostgresHubStage, type PostgresHubStage } from '../support/hub-postgres-stage';

/**
 * A joined machine's own dashboard names the team policy version it runs, in the hub badge,
 * and follows a new publish (real hub on PostgreSQL, real daemon, chromium).
 */
describe("the machine's dashboard shows its team policy version", () => {
  let stage: PostgresHubStage;
  let browser: Browser;
  let local: WatchedPage | undefined;

  beforeAll(async () => {
    stage = await startPostgresHubStage({ database: 'team_badge', dashboard: true });
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await local?.context.close();
    await browser?.close();
    await stage?.stop();
  });

  it('no version before a publish; the version and its rules after', async () => {
    local = await openPage(browser);
    await local.page.goto(stage.daemon.dashboardUrl!);
    const badge = local.page.getByTestId('joined-hub');
    await badge.waitFor();
    expect(await local.page.getByTestId('team-policy-version').count()).toBe(0);
    for (const args of [
      ['add', 'git_push', '--tier', 'ask'],
      ['add', 'deploy', '--tier', 'deny', '--shadow'],
      ['publish'],
    ])
      expect((await stage.hub.cli(['policy', ...args])).code).toBe(0);
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
