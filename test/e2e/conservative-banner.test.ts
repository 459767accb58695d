import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { dashboardForFile, SCREENSHOTS } from './harness';

// The safety switch surfaced: a real daemon, an agent whose model calls fail over the socket,
// and the person in chromium who sees the banner, tries again, and sees it clear by itself.

const ctx = dashboardForFile();

const rateLimited = {
  ok: false,
  source: 'llm',
  provider: 'other',
  httpStatus: 429,
  message: 'rate limited',
} as const;

describe('conservative mode in the dashboard', () => {
  it('shows why and what is restricted, recovers by hand and clears itself on recovery', async () => {
    const set = (key: string, value: unknown) => ctx.daemon.api('settings.set', { key, value });
    await set('guards.safety.blockedOperations', ['web_search']);
    await set('guards.safety.conservativeModel', 'claude-haiku-4-5');
    const agent = await ctx.daemon.agent('cautious');
    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(ctx.daemon.url);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    expect(await page.getByTestId('conservative-banner').count()).toBe(0);

    // A rate limit switches the session; the banner comes in live.
    await agent.outcome(rateLimited);
    const banner = page.getByTestId('conservative-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-session-id')).toBe(agent.sessionId);
    const text = await banner.textContent();
    expect(text).toContain('cautious is in conservative mode');
    expect(text).toMatch(/rate.?limit/i);
    expect(await page.getByTestId('conservative-restrictions').textContent()).toMatch(
      /model: claude-haiku-4-5 · at most 4000 tokens per call · no streaming · blocked: web_search/,
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'conservative-banner.png'), fullPage: true });

    // Try again: the daemon recovers the session and the banner goes, with a notice.
    await page.getByTestId('conservative-retry').click();
    await page
      .getByTestId('notices')
      .filter({ hasText: 'cautious is back to normal mode' })
      .waitFor();
    await banner.waitFor({ state: 'detached' });
    expect((await agent.check({})).mode).toBe('normal');

    // Switched again, then an automatic recovery (a success after the quiet time) clears it.
    await set('guards.safety.recoverQuietMs', 0);
    await agent.outcome(rateLimited);
    await banner.waitFor();
    await agent.outcome({ ok: true, source: 'llm', provider: 'other' });
    await banner.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  });
});
