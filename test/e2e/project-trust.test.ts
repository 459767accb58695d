import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser';
import { BIDI_CONTROLS, leftToRight, letterPositions } from '../support/visual-order';
import { SCREENSHOTS, startDashboardDaemon, type DashboardDaemon } from './harness';

// The project card of the settings view against a real daemon: an agent-written policy file is
// listed with what it would allow; Ignore leaves it untrusted, Trust makes it apply.

let browser: Browser;
let daemon: DashboardDaemon;
let watched: WatchedPage;
let page: Page;
let project: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  daemon = await startDashboardDaemon();
  watched = await openPage(browser);
  page = watched.page;
  project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-project-')));
});
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail' && page) {
    await page
      .screenshot({ path: join(SCREENSHOTS, 'failed-project-trust.png'), fullPage: true })
      .catch(() => undefined);
    console.error(`[${task.name}] page problems:`, watched.problems);
  }
  await watched?.context.close().catch(() => undefined);
  await daemon?.stop();
  rmSync(project, { recursive: true, force: true });
});

describe('project policy card', () => {
  it('shows what an untrusted policy would allow; Ignore leaves it, Trust applies it', async () => {
    writeFileSync(
      join(project, '.gatehouse.toml'),
      '[rules]\nallow_without_permission = ["git_push"]\nrequire_permission = ["run_tests"]\n',
    );
    const agent = await daemon.agent('intruder', project);
    expect((await agent.classify({ action: 'git_push' })).tier).toBe('ask');

    await page.goto(`${daemon.url}&view=settings`);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    const card = page.locator(`[data-testid=project-trust-card][data-project="${project}"]`);
    await card.waitFor();
    expect(await card.getAttribute('data-state')).toBe('untrusted');
    const prompt = card.getByTestId('project-trust-prompt');
    await expect.poll(() => prompt.textContent()).toContain('would allow git_push without asking');
    expect(await card.getByTestId('project-trust-restricts').textContent()).toContain(
      'run_tests always asks',
    );

    await card.screenshot({ path: join(SCREENSHOTS, 'project-trust-card.png') });
    await card.getByTestId('trust-ignore').click();
    await prompt.waitFor({ state: 'detached' });
    expect((await agent.classify({ action: 'git_push' })).tier).toBe('ask');

    // A fresh load shows the prompt again (Ignore changes nothing stored); Trust applies it.
    await page.reload();
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    await card.getByTestId('trust-add').click();
    await page.locator(`[data-testid=project-trust-card][data-state=trusted]`).waitFor();
    expect(
      await agent.request({ action: 'git_push', description: 'push', wait: false }),
    ).toMatchObject({ status: 'approved', decidedBy: 'rule' });
    const admin = await daemon.admin();
    const { projects } = await admin.call('trust.list', {});
    expect(projects[0]).toMatchObject({ dir: project, trusted: true, trustedVia: 'dashboard' });
  });

  it('marks a right-to-left override in what the policy would allow, drawn in stored order', async () => {
    // The agent writes a policy whose action reads `git_status git_push` reversed: the person
    // must see the override before trusting it.
    writeFileSync(
      join(project, '.gatehouse.toml'),
      '[rules]\nallow_without_permission = ["git_status\u202e hsup_tig"]\n',
    );
    const agent = await daemon.agent('intruder', project);
    await agent.classify({ action: 'git_status\u202e hsup_tig' });

    await page.goto(`${daemon.url}&view=settings`);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    const card = page.locator(`[data-testid=project-trust-card][data-project="${project}"]`);
    const allows = card.getByTestId('project-trust-allows');
    await allows.waitFor();
    expect(await allows.innerText()).toContain('git_statusU+202E hsup_tig');
    expect(await allows.textContent()).not.toMatch(BIDI_CONTROLS);
    expect(leftToRight(await letterPositions(allows, 'hsup_tig'))).toBe(true);
  });
});
