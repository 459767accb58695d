import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Rows a windowed list may draw: a screenful and its overscan, far below the lists' length. */
export const MAX_DRAWN = 170;

/** A windowed list in the page: the element with `data-count` (the rows loaded), and a row. */
export interface ListSelectors {
  list: string;
  row: string;
}

/**
 * Waits for the first page of a paged list: its first row drawn, `data-count` one page (100)
 * and `footer` (what the footer says) shown. Returns the first row's text, for the caller to
 * check it is the newest.
 */
export async function firstPage(
  page: Page,
  { list, row }: ListSelectors,
  footer: Locator,
): Promise<string | null> {
  await page.locator(row).first().waitFor();
  expect(await page.locator(list).getAttribute('data-count')).toBe('100');
  await footer.waitFor();
  return page.locator(row).first().textContent();
}

/**
 * Scrolls the page to its end until the list `list` (a selector of an element with
 * `data-count`, the rows loaded) reaches `until`, waiting each time for the next page to
 * arrive; checks on the way that at most `maxDrawn` rows (`row`) are in the DOM, however
 * many are loaded. Returns the count reached.
 */
export async function scrollUntil(
  page: Page,
  { list, row }: ListSelectors,
  until: number,
  maxDrawn = MAX_DRAWN,
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
