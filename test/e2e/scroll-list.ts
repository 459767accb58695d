import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Scrolls the page to its end until the list `list` (a selector of an element with
 * `data-count`, the rows loaded) reaches `until`, waiting each time for the next page to
 * arrive; checks on the way that at most `maxDrawn` rows (`row`) are in the DOM, however
 * many are loaded. Returns the count reached.
 */
export async function scrollUntil(
  page: Page,
  list: string,
  row: string,
  until: number,
  maxDrawn: number,
): Promise<number> {
  const locator = page.locator(list);
  let loaded = Number(await locator.getAttribute('data-count'));
  while (loaded < until) {
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await page.locator(`${list}:not([data-count="${loaded}"])`).waitFor();
    loaded = Number(await locator.getAttribute('data-count'));
    expect(await page.locator(row).count()).toBeLessThanOrEqual(maxDrawn);
  }
  return loaded;
}
