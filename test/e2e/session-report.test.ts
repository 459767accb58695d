import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { dashboardForFile, SCREENSHOTS } from './harness';

// The session report from the dashboard: a real daemon, a real agent over the socket, a
// person in chromium who downloads the Markdown report of the session.

const ctx = dashboardForFile();

describe('session report in the dashboard', () => {
  it('downloads the Markdown report of the selected session', async () => {
    const agent = await ctx.daemon.agent('reporter', '/home/dev/app');
    await agent.log({ type: 'read_file', description: 'Read the changelog' });
    await agent.usage({
      model: 'claude-sonnet-4-5',
      inputTokens: 900,
      outputTokens: 90,
      costUsd: 0.2,
    });
    await agent.request({ action: 'git_push', description: 'Push the release', wait: false });
    await agent.end('completed');

    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.daemon.url}&view=sessions`);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    await page
      .getByTestId('session-item')
      .filter({ hasText: 'reporter' })
      .locator('button')
      .click();
    await page.getByTestId('session-summary').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('session-report-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^gatehouse-report-ses-[\w-]+\.md$/);
    const saved = join(SCREENSHOTS, '..', download.suggestedFilename());
    await download.saveAs(saved);
    const md = readFileSync(saved, 'utf8');
    expect(md).toMatch(/^# Session report: reporter/);
    expect(md).toContain('Read the changelog');
    expect(md).toMatch(/\| claude-sonnet-4-5 \| 1 \| 900 \| 90 \| \$0\.2000 \|/);
    expect(md).toMatch(/## Still waiting\n\n- `req-[^`]+` Push the release/);
    await page.screenshot({ path: join(SCREENSHOTS, 'session-report.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
