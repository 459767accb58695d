import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../support/browser';
import { SCREENSHOTS, startDashboardDaemon, type DashboardDaemon } from './harness';

// A breaker that tripped and closed again still shows in the dashboard, with its reason.

let browser: Browser;
let daemon: DashboardDaemon;
beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await launchBrowser();
  daemon = await startDashboardDaemon();
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

describe('recent trips in the dashboard', () => {
  it('lists a trip after its breaker closed again', async () => {
    const agent = await daemon.agent('looper');
    // Iterations without progress trip the stagnation breaker, which stops the loop.
    let stopped = false;
    for (let iteration = 1; iteration <= 30 && !stopped; iteration++)
      stopped = !(await agent.check({ phase: 'coding', iteration, progress: false })).allowed;
    expect(stopped).toBe(true);
    const { body } = await daemon.api('guards.breakers', {});
    const result = body.result as { breakers: { name: string }[]; recentTrips: unknown[] };
    expect(result.recentTrips.length).toBeGreaterThan(0);

    const { context, page, problems } = await openPage(browser);
    await page.goto(`${daemon.url}&view=budgets`);
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
