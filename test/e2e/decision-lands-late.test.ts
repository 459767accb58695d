import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { dashboardForFile } from './harness';

// The daemon answers the waiting agent as soon as the decision is stored; the dashboard's own
// answer may land later (a loaded machine, a slow network between the tray and its window).
// By then the person may have gone on to the history or opened another request: the late
// answer must leave them there, not pull them back to the queue's next request.

const ctx = dashboardForFile();

/** Holds the dashboard's `decide` answers until `release` is called; the daemon has decided. */
async function holdDecideAnswers(page: Page): Promise<{ release(): Promise<void> }> {
  const held: { route: Route; response: Awaited<ReturnType<Route['fetch']>> }[] = [];
  let arrived!: () => void;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  await page.route('**/api/decide', async (route) => {
    held.push({ route, response: await route.fetch() });
    arrived();
  });
  return {
    async release() {
      await first;
      const finished = page.waitForEvent('requestfinished', (r) => r.url().endsWith('/api/decide'));
      for (const { route, response } of held) await route.fulfill({ response });
      await finished;
      // What the page does with the answer runs in the frames after it arrives.
      await page.evaluate(
        'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 100))))',
      );
    },
  };
}

async function fileThree(tag: string) {
  const agent = await ctx.daemon.agent(`late-${tag}`, '/work/late');
  const admin = await ctx.daemon.admin();
  const answers = ['one', 'two', 'three'].map((n) =>
    agent.request({
      action: 'git_push',
      description: `Push ${tag} ${n}`,
      rationale: 'the branch is ready',
      command: `git push origin ${tag}-${n}`,
      target: 'origin',
      wait: true,
      timeoutMs: 60_000,
    }),
  );
  const ids: string[] = [];
  for (const n of ['one', 'two', 'three'])
    ids.push((await waitForPending(admin, (r) => r.description === `Push ${tag} ${n}`)).requestId);
  /** The waiting agent's answer to one request. */
  const answerTo = (requestId: string) => answers[ids.indexOf(requestId)]!;
  /** Denies what is left, so every agent call has its answer before the test ends. */
  const finish = async () => {
    for (const r of (await admin.call('pending.list', {})).requests)
      await admin.call('decide', { requestId: r.requestId, decision: 'deny', reason: 'test done' });
    await Promise.all(answers);
  };
  return { answerTo, finish };
}

async function openQueue(page: Page): Promise<string[]> {
  await page.goto(ctx.daemon.url);
  await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
  const items = page.locator('[data-testid=pending-item]');
  await expect.poll(() => items.count()).toBe(3);
  return Promise.all(
    (await items.all()).map(async (i) => (await i.getAttribute('data-request-id')) ?? ''),
  );
}

describe('a decision whose answer reaches the dashboard late', () => {
  it('leaves the person on the history view they went to meanwhile', async () => {
    const { answerTo, finish } = await fileThree('history');
    const { page, context, problems } = await openPage(ctx.browser);
    const [first] = await openQueue(page);
    await page.goto(`${ctx.daemon.origin}/#request=${first}`);
    await page.locator(`[data-testid=request-detail][data-request-id=${first}]`).waitFor();
    const held = await holdDecideAnswers(page);
    await page.getByTestId('approve-once').click();
    // The agent has its answer while the page still waits for its own.
    expect((await answerTo(first!)).status).toBe('approved');
    await page.getByTestId('nav-history').click();
    await page.locator(`[data-testid=history-row][data-request-id=${first}]`).waitFor();
    await held.release();
    expect(await page.evaluate('window.location.hash')).toBe('#view=history');
    expect(await page.locator(`[data-testid=history-row]`).count()).toBe(1);
    await finish();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('leaves the person on the request they opened meanwhile', async () => {
    const { answerTo, finish } = await fileThree('opened');
    const { page, context, problems } = await openPage(ctx.browser);
    const [first, , third] = await openQueue(page);
    await page.goto(`${ctx.daemon.origin}/#request=${first}`);
    await page.locator(`[data-testid=request-detail][data-request-id=${first}]`).waitFor();
    const held = await holdDecideAnswers(page);
    await page.getByTestId('approve-once').click();
    expect((await answerTo(first!)).status).toBe('approved');
    await page.locator(`#open-${third}`).click();
    await page.locator(`[data-testid=request-detail][data-request-id=${third}]`).waitFor();
    await held.release();
    expect(await page.evaluate('window.location.hash')).toBe(`#request=${third}`);
    await page.locator(`[data-testid=request-detail][data-request-id=${third}]`).waitFor();
    await finish();
    expect(problems).toEqual([]);
    await context.close();
  });
});
