import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { dashboardForFile, SCREENSHOTS } from './harness';

// A queue of thousands: the dashboard loads it a page at a time as you scroll and
// draws only the rows in view.

const ctx = dashboardForFile();
const WAITING = 3000;
/** Rows the window may draw: a screenful and its overscan, far below the queue's length. */
const MAX_DRAWN = 120;

describe('a long review queue in the dashboard', () => {
  it('loads pages as the list scrolls and draws only what is visible', async () => {
    // Four agents: each session may have 1000 requests waiting (requests.maxQueuedPerSession).
    const agents = await Promise.all(['a1', 'a2', 'a3', 'a4'].map((n) => ctx.daemon.agent(n)));
    for (let i = 0; i < WAITING; i += 100)
      await Promise.all(
        Array.from({ length: 100 }, (_, j) =>
          agents[(i + j) % 4]!.request({
            action: 'git_push',
            description: `push ${i + j}`,
            wait: false,
          }),
        ),
      );

    const { context, page, problems } = await openPage(ctx.browser);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(ctx.daemon.url);
    const list = page.getByTestId('pending-list');
    await list.waitFor();
    // The first page only, with the rest counted.
    expect(await list.getAttribute('data-count')).toBe('200');
    await page.getByText(`${(WAITING - 200).toLocaleString('en-US')} more waiting`).waitFor();
    expect(await page.title()).toBe(`(${WAITING}) Gatehouse`);
    expect(await page.getByTestId('pending-item').count()).toBeLessThanOrEqual(MAX_DRAWN);

    // Scrolling to the end loads the next page, again and again, until none is left.
    let loaded = 200;
    while (loaded < WAITING) {
      await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
      // The list's count changes when the next page arrives.
      await page.locator(`[data-testid=pending-list]:not([data-count="${loaded}"])`).waitFor();
      loaded = Number(await list.getAttribute('data-count'));
      expect(await page.getByTestId('pending-item').count()).toBeLessThanOrEqual(MAX_DRAWN);
    }
    expect(loaded).toBe(WAITING);
    await page.getByTestId('pending-unloaded').waitFor({ state: 'detached' });
    // At the end of the page, the newest requests (the last batch) are drawn.
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await page
      .locator('[data-testid=pending-item] .request-title', { hasText: /^push 29\d\d$/ })
      .last()
      .waitFor();
    expect(await page.getByTestId('pending-item').count()).toBeLessThanOrEqual(MAX_DRAWN);
    await page.screenshot({ path: join(SCREENSHOTS, 'long-queue.png') });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
