import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/store/database';
import { openPage } from '../support/browser';
import { seedLongSession, type SeededSession } from '../support/seed-session';
import { dashboardForFile, SCREENSHOTS } from './harness';
import { firstPage, scrollUntil } from './scroll-list';

// A session that ran all day: its detail opens with its facts and counts, and its
// transcript and requests load a page at a time as they scroll, drawn only around the view.

const REQUESTS = 5000;
const LOGS = 5000;
const ENTRIES = REQUESTS + LOGS;
const TRANSCRIPT = { list: '[data-testid=transcript]', row: '[data-testid=transcript-entry]' };
const REQUESTS_LIST = {
  list: '[data-testid=session-requests]',
  row: '[data-testid=session-request]',
};
/** The most a call of the detail may answer: a page, not the session. */
const MAX_ANSWER_BYTES = 64 * 1024;

let seeded!: SeededSession;
const ctx = dashboardForFile((home) => {
  const db = openDatabase({ file: join(home, 'gatehouse.db') });
  seeded = seedLongSession(db, {
    startedAt: Date.now() - 4 * 3_600_000,
    requests: REQUESTS,
    logs: LOGS,
  });
  db.close();
});

describe("a long session's detail in the dashboard", () => {
  it('opens with counts and pages the transcript and the requests as they scroll', async () => {
    const { context, page, problems } = await openPage(ctx.browser);
    await page.setViewportSize({ width: 1280, height: 900 });
    // Every answer the detail gets is a page: none grows with the session.
    const answers: { method: string; bytes: number }[] = [];
    page.on('response', (r) => {
      const method = /\/api\/(session\.[a-z]+|requests\.query)$/.exec(new URL(r.url()).pathname);
      if (method) void r.body().then((b) => answers.push({ method: method[1]!, bytes: b.length }));
    });

    await page.goto(`${ctx.daemon.url}&session=${encodeURIComponent(seeded.sessionId)}`);
    await page.getByTestId('session-detail').waitFor();
    await page.getByTestId('session-tab-transcript').filter({ hasText: '(10,000)' }).waitFor();
    expect(await page.getByTestId('session-tab-requests').textContent()).toContain('(5,000)');

    // The transcript: newest first, a page, and how many there are.
    const newestEntry = await firstPage(
      page,
      TRANSCRIPT,
      page.getByText(`Showing 100 of ${ENTRIES.toLocaleString('en-US')} entries`),
    );
    expect(newestEntry).toContain(`did step ${LOGS - 1}`);
    await page.screenshot({ path: join(SCREENSHOTS, 'long-session-top.png') });
    expect(await scrollUntil(page, TRANSCRIPT, 600)).toBeGreaterThanOrEqual(600);
    await page.screenshot({ path: join(SCREENSHOTS, 'long-session.png') });

    // The requests: the same, newest first, from the top.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.getByTestId('session-tab-requests').click();
    const newestRequest = await firstPage(
      page,
      REQUESTS_LIST,
      page.getByText(`Showing 100 of ${REQUESTS.toLocaleString('en-US')} requests`),
    );
    expect(newestRequest).toContain(`step ${REQUESTS - 1}`);
    expect(await scrollUntil(page, REQUESTS_LIST, 500)).toBeGreaterThanOrEqual(500);
    // Every request shown is this session's, each once.
    expect(new Set(await page.getByTestId('session-request').allTextContents()).size).toBe(
      await page.getByTestId('session-request').count(),
    );

    expect(answers.map((a) => a.method)).toEqual(
      expect.arrayContaining(['session.get', 'session.transcript', 'requests.query']),
    );
    for (const a of answers) expect(a.bytes, a.method).toBeLessThan(MAX_ANSWER_BYTES);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
