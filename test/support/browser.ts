import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
} from 'playwright-core';

/** Debian's chromium; Playwright's own browser download does not work on these machines. */
export const CHROMIUM_PATH = process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium';

/** Launches headless chromium with the flags that let it run as root in a container, quietly. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A page plus every console error and CSP violation it logs, for tests to assert on. */
export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors (CSP violations among them), uncaught page errors, failed page loads. */
  problems: string[];
}

/** Opens a fresh context (own storage) and page, recording problems the page reports. */
export async function openPage(
  browser: Browser,
  viewport = { width: 1280, height: 860 },
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    // Chromium logs every HTTP error status as a console error; those are judged below by
    // URL, because an API call the UI refuses on purpose (400) is not a problem of the page.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !new URL(response.url()).pathname.startsWith('/api/')) {
      problems.push(`response: ${response.status()} ${response.url()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { context, page, problems };
}
