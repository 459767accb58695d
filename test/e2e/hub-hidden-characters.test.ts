import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { GatehouseClient } from '../../clients/sdk/client';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser';
import { TestDaemon, waitForPending } from '../support/daemon';
import { joinHub, TestHub } from '../support/hub';
import { BIDI_CONTROLS, leftToRight, letterPositions } from '../support/visual-order';
import { SCREENSHOTS } from './harness';

const REVERSED = 'git status\u202e ecrof-- hsup tig';

/**
 * The team dashboard is read by people who did not see the agent at work, on another machine:
 * a command an agent on a joined machine wrote with a right-to-left override reaches the hub
 * as the agent wrote it (the machine stores and publishes it exactly), and the hub's request
 * list and detail show the override as a marked chip, with the command's letters drawn in the
 * order they are stored, so `ecrof-- hsup tig` cannot read as `git push --force`.
 */
describe('hidden and bidirectional characters on the team dashboard', () => {
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  let browser: Browser;
  let watched: WatchedPage;
  let project: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    project = mkdtempSync(join(tmpdir(), 'gatehouse-hub-hidden-'));
    hub = await TestHub.start();
    daemon = await TestDaemon.start({}, ['--no-dashboard']);
    await joinHub(daemon, hub, 'laptop');
    admin = await daemon.admin();
    agent = await daemon.agent({ agent: 'claude-code', project });
    browser = await launchBrowser();
    watched = await openPage(browser);
    await watched.page.goto(await hub.signInLink('ann', 'approver'));
    await watched.page.getByTestId('hub-app').waitFor();
  }, 240_000);
  afterAll(async () => {
    await watched?.context.close().catch(() => undefined);
    await browser?.close();
    agent?.close();
    admin?.close();
    await daemon?.stop();
    await hub?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('marks the override in the list and the detail, and draws the command in stored order', async () => {
    await agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Bash',
      input: { command: REVERSED, description: `Check\u200b the tree` },
      toolUseId: 'tu-hub-hidden',
      cwd: project,
      wait: false,
    });
    const { requestId } = await waitForPending(
      admin,
      (r) => r.dedupeKey === 'claude-code:tu-hub-hidden',
    );
    const { page } = watched;
    const row = page.locator(`[data-testid="hub-request"][data-request-id="${requestId}"]`);
    await row.waitFor({ timeout: 30_000 });
    const open = row.getByTestId('hub-request-open');
    expect(await open.textContent()).not.toMatch(/[\u200b]/);
    expect(await open.locator('[data-testid=hidden-char]').first().getAttribute('data-code')).toBe(
      'U+200B',
    );

    await open.click();
    const command = page.getByTestId('hub-detail-command');
    await command.waitFor();
    expect(await command.innerText()).toBe('git statusU+202E ecrof-- hsup tig');
    expect(await command.textContent()).not.toMatch(BIDI_CONTROLS);
    expect(await command.locator('[data-testid=hidden-char]').getAttribute('data-code')).toBe(
      'U+202E',
    );
    expect(leftToRight(await letterPositions(command, 'ecrof'))).toBe(true);
    expect(await page.getByTestId('hub-detail-description').textContent()).not.toMatch(
      /[\u200b\u202e]/,
    );
    await page
      .getByTestId('hub-request-detail')
      .screenshot({ path: join(SCREENSHOTS, 'hub-hidden-characters.png') });
    expect(watched.problems).toEqual([]);
  }, 120_000);
});
