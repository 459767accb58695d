import type { Browser, Locator, Page } from 'playwright-core';
import { openPage, type WatchedPage } from './browser';

/** Opens a sign-in link in `watched` and waits until the team dashboard shows. */
export async function signInHub(watched: WatchedPage, link: string): Promise<void> {
  await watched.page.goto(link);
  await watched.page.getByTestId('hub-app').waitFor();
}

/**
 * A fresh page (own cookies) signed in with `link`; added to `pages`, which the test closes
 * after its last test.
 */
export async function openSignedIn(
  browser: Browser,
  link: string,
  pages: WatchedPage[],
): Promise<WatchedPage> {
  const watched = await openPage(browser);
  pages.push(watched);
  await signInHub(watched, link);
  return watched;
}

/** A request's row in the team dashboard's list. */
export const hubRequestRow = (page: Page, requestId: string): Locator =>
  page.locator(`[data-testid="hub-request"][data-request-id="${requestId}"]`);
