import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedHistory } from '../../bench/lib/seed-history.mjs';
import { openDatabase } from '../../main/store/database';
import { openPage } from '../support/browser';
import { dashboardForFile, SCREENSHOTS } from './harness';
import { firstPage, MAX_DRAWN, scrollUntil } from './scroll-list';

// A year of history: the History tabs and the Sessions list load a page at a time
// as they scroll, draw only the rows in view, and say how many there are.

const SEED = { sessions: 1500, requests: 4000, pending: 0, audit: 6000 };
/** Decided requests the seed files by hand (the others policy settled; all are decided). */
const DECIDED = SEED.requests;
const DECISIONS = { list: '[data-testid=history-table] tbody', row: '[data-testid=history-row]' };
const AUDIT = { list: '[data-testid=audit-table] tbody', row: '[data-testid=audit-row]' };
const SESSIONS = { list: '[data-testid=session-list]', row: '[data-testid=session-item]' };

const ctx = dashboardForFile((home) => {
  const db = openDatabase({ file: join(home, 'gatehouse.db') });
  seedHistory(db, { now: Date.now(), days: 365, ...SEED });
  db.close();
});

describe('a long history in the dashboard', () => {
  it('pages decisions, the audit trail and sessions as they scroll', async () => {
    const { context, page, problems } = await openPage(ctx.browser);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Decisions: the newest page first, with the total counted.
    await page.goto(`${ctx.daemon.url}&view=history`);
    const newest = await firstPage(
      page,
      DECISIONS,
      page.getByText(`Showing 100 of ${DECIDED.toLocaleString('en-US')} decisions`),
    );
    expect(newest).toContain(`number ${SEED.requests - 1}`);
    expect(await scrollUntil(page, DECISIONS, 600)).toBeGreaterThanOrEqual(600);
    await page.screenshot({ path: join(SCREENSHOTS, 'long-history.png') });

    // A filter starts again from its own first page (seen from the top: at the end of the
    // list the next page would load at once).
    await page.evaluate('window.scrollTo(0, 0)');
    await page.getByTestId('history-status').selectOption('denied');
    await page
      .locator('[data-testid=history-row]:not([data-status=denied])')
      .first()
      .waitFor({ state: 'detached' });
    expect(await page.locator(DECISIONS.list).getAttribute('data-count')).toBe('100');

    // The audit trail: newest first, more as it scrolls (uncounted: a count walks the trail).
    await page.evaluate('window.scrollTo(0, 0)');
    await page.getByTestId('history-tab-audit').click();
    await firstPage(page, AUDIT, page.getByTestId('audit-more'));
    expect(await scrollUntil(page, AUDIT, 500)).toBeGreaterThanOrEqual(500);

    // Sessions: the same, with the total.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.getByTestId('nav-sessions').click();
    const sessions = page.getByTestId('session-list');
    await page.getByTestId('session-item').first().waitFor();
    await page
      .getByText(`of ${SEED.sessions.toLocaleString('en-US')} sessions: scroll to load more`)
      .waitFor();
    expect(await scrollUntil(page, SESSIONS, SEED.sessions)).toBe(SEED.sessions);
    expect(await sessions.getAttribute('data-count')).toBe(String(SEED.sessions));
    await page.getByTestId('sessions-more').waitFor({ state: 'detached' });
    expect(await page.getByTestId('session-item').count()).toBeLessThanOrEqual(MAX_DRAWN);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
