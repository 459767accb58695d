import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { dashboardForFile } from './harness';

// What the person sees in the dashboard: the session detail beside the clicked
// row, agents' real state, the channels card under Settings, a real editor for the caps of
// named agents, and the Port field saying when an environment variable overrides it.

const ctx = dashboardForFile();

describe('the dashboard shows things where and as they are', () => {
  it('opens a session beside the clicked row, however far the list is scrolled', async () => {
    // Enough ended sessions that the list is longer than the window.
    for (let i = 0; i < 40; i++) {
      const a = await ctx.daemon.agent(`worker-${String(i).padStart(2, '0')}`);
      await a.end('completed');
      a.close();
    }
    const { context, page, problems } = await openPage(ctx.browser, { width: 1280, height: 700 });
    await page.goto(`${ctx.daemon.url}&view=sessions`);
    const rows = page.getByTestId('session-item');
    await rows.nth(30).waitFor();
    const row = rows.nth(30);
    await row.scrollIntoViewIfNeeded();
    await row.locator('button').click();
    const detail = page.getByTestId('session-detail');
    await detail.waitFor();
    const viewport = page.viewportSize()!;
    const box = (await detail.boundingBox())!;
    const rowBox = (await row.boundingBox())!;
    // In view, beside the row: not at the top of the page, out of sight.
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThan(viewport.height);
    expect(rowBox.y).toBeGreaterThanOrEqual(0);
    expect(rowBox.y).toBeLessThan(viewport.height);
    expect(box.x).toBeGreaterThan(rowBox.x + rowBox.width - 1);

    // In a narrow window the detail is below the list: it is brought into view.
    await page.setViewportSize({ width: 600, height: 700 });
    await rows.nth(35).scrollIntoViewIfNeeded();
    await rows.nth(35).locator('button').click();
    // Polled with page.evaluate (the DevTools protocol, outside the page's CSP): a string
    // predicate for waitForFunction is eval'd inside the page, which the dashboard's CSP
    // refuses once it has to poll. (A string: the test is type-checked for Node.)
    await expect
      .poll(
        () =>
          page.evaluate(`(() => {
            const r = document.querySelector('[data-testid=session-detail]')?.getBoundingClientRect();
            return r !== undefined && r.top < window.innerHeight && r.bottom > 0;
          })()`),
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lists agents by their real state: running only while connected', async () => {
    const live = await ctx.daemon.agent('live-one');
    const gone = await ctx.daemon.agent('gone-one');
    await gone.end('completed');
    gone.close();
    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.daemon.url}&view=sessions`);
    const state = (agent: string) =>
      page.locator(`[data-testid=agent-row][data-agent="${agent}"] [data-testid=agent-activity]`);
    await state('live-one').waitFor();
    expect(await state('live-one').textContent()).toBe('running');
    expect(await state('gone-one').textContent()).toBe('idle');
    // The agents of the first test ended long ago: none of them is "running".
    expect(await state('worker-00').textContent()).toBe('idle');
    expect(problems).toEqual([]);
    await context.close();
    live.close();
  });

  it('has the channels card under the Settings heading, a table for caps of named agents, and says the port is overridden', async () => {
    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.daemon.url}&view=settings`);
    await page.getByTestId('settings-section-budgets').waitFor();
    const order = await page.evaluate<{
      heading?: string;
      cardInside?: boolean;
      cardAfter?: boolean;
    }>(`(() => {
      const heading = document.querySelector('.settings-view > h2');
      const card = document.querySelector('[data-testid=channel-health]');
      return {
        heading: heading?.textContent,
        cardInside: card ? document.querySelector('.settings-view').contains(card) : undefined,
        cardAfter:
          heading && card
            ? Boolean(heading.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING)
            : undefined,
      };
    })()`);
    expect(order).toEqual({ heading: 'Settings', cardInside: true, cardAfter: true });

    // Caps of named agents: a row per agent, a number per cap, no JSON box.
    const caps = page.getByTestId('setting-budgets-agents');
    expect(await caps.evaluate((e) => e.tagName)).toBe('DIV');
    await page.getByTestId('setting-budgets-agents-add').click();
    const row = page.getByTestId('setting-budgets-agents-row').first();
    await row.getByLabel('Name 1').fill('builder');
    await row.locator('input[data-column=perDayUsd]').fill('5');
    await page.getByTestId('save-budgets').click();
    await page.getByTestId('notices').filter({ hasText: 'Saved budgets settings' }).waitFor();
    const admin = await ctx.daemon.admin();
    expect((await admin.call('settings.get', { key: 'budgets.agents' })).value).toEqual({
      builder: { perDayUsd: 5 },
    });

    // The test daemon starts with GATEHOUSE_DASHBOARD_PORT=0 (a free port).
    const note = page.getByTestId('setting-dashboard-port-note');
    await note.waitFor();
    expect(await note.textContent()).toContain(
      'GATEHOUSE_DASHBOARD_PORT=0 in Gatehouse’s environment overrides this setting'.replace(
        '’',
        "'",
      ),
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});
