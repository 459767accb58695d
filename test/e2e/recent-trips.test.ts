import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { dashboardForFile, SCREENSHOTS } from './harness';

// A breaker that tripped and closed again still shows in the dashboard, with its reason.

const ctx = dashboardForFile();

describe('recent trips in the dashboard', () => {
  it('lists a trip after its breaker closed again', async () => {
    const agent = await ctx.daemon.agent('looper');
    // Iterations without progress trip the stagnation breaker, which stops the loop.
    let stopped = false;
    for (let iteration = 1; iteration <= 30 && !stopped; iteration++)
      stopped = !(await agent.check({ phase: 'coding', iteration, progress: false })).allowed;
    expect(stopped).toBe(true);
    const { body } = await ctx.daemon.api('guards.breakers', {});
    const result = body.result as { breakers: { name: string }[]; recentTrips: unknown[] };
    expect(result.recentTrips.length).toBeGreaterThan(0);

    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.daemon.url}&view=budgets`);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    const trip = page.getByTestId('recent-trip').first();
    await trip.waitFor();
    expect(await trip.textContent()).toMatch(/STAGNATION_DETECTED \(\d+ of \d+\)/);
    expect(await trip.textContent()).toContain('looper');
    await page.getByTestId('recent-trips').screenshot({
      path: join(SCREENSHOTS, 'recent-trips.png'),
    });
    expect(problems).toEqual([]);
    await context.close();
  });
});
