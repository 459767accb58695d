import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { dashboardForFile, SCREENSHOTS } from './harness';

// A hook's context reads as labelled facts in the request detail; the raw JSON is one key away.

const ctx = dashboardForFile();

describe('request context in the dashboard', () => {
  it('shows the context as readable facts and the raw JSON on `r`', async () => {
    const agent = await ctx.daemon.agent('claude-code', '/home/dev/shop');
    void agent.request({
      action: 'git_push',
      description: 'Run: git push origin main',
      command: 'git push origin main',
      context: {
        tool: 'Bash',
        cwd: '/home/dev/shop',
        permissionMode: 'default',
        alsoAsking: ['run_tests', 'install_package'],
        event: 'PreToolUse',
      },
    });
    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(ctx.daemon.url);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    await page.getByTestId('pending-item').first().getByTestId('pending-open').click();
    const facts = page.getByTestId('detail-context');
    await facts.waitFor();
    const text = (key: string) => facts.locator(`dd[data-key=${key}]`).textContent();
    expect(await text('tool')).toBe('Bash');
    expect(await text('cwd')).toBe('/home/dev/shop');
    expect(await text('alsoAsking')).toBe('run_tests, install_package');
    expect(await facts.textContent()).toContain('Working dir');
    expect(await facts.textContent()).not.toContain('{');
    await page.getByTestId('request-detail').screenshot({
      path: join(SCREENSHOTS, 'request-context.png'),
    });

    // One keystroke to the raw JSON and back.
    await page.locator('body').press('r');
    const raw = page.getByTestId('detail-context-raw');
    await raw.waitFor();
    expect(JSON.parse((await raw.textContent()) ?? '')).toMatchObject({
      tool: 'Bash',
      alsoAsking: ['run_tests', 'install_package'],
    });
    await page.locator('body').press('r');
    await facts.waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
