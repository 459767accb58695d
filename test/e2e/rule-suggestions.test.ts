import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { dashboardForFile, SCREENSHOTS } from './harness';

// "Make it a rule" in the dashboard: a real daemon, a real agent over the socket whose push
// a person approved five times, and the person in chromium who accepts one suggestion and
// says "not now" to another.

const ctx = dashboardForFile();

const PROJECT = '/home/dev/shop';
const PUSH = 'git push origin main';
const TESTS = 'npm publish --tag next';

describe('rule suggestions in the dashboard', () => {
  it('shows the suggestion card with the rule and its history; "Make it a rule" saves it, "Not now" hides one', async () => {
    const agent = await ctx.daemon.agent('shipper', PROJECT);
    const admin = await ctx.daemon.admin();
    for (const [action, command] of [
      ['git_push', PUSH],
      ['publish_package', TESTS],
    ] as const) {
      for (let i = 0; i < 5; i++) {
        const q = await agent.request({
          action,
          description: `run ${command}`,
          command,
          wait: false,
        });
        await admin.call('decide', {
          requestId: q.requestId,
          decision: 'approve',
          // The socket records what the CLI says it is, and `socket` for any other claim.
          ...(i < 2 ? { via: 'cli' as const } : { via: 'desktop' as const }),
        });
      }
    }

    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.daemon.url}&view=pending`);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    const cards = page.getByTestId('suggestion-card');
    await expect.poll(() => cards.count()).toBe(2);
    const push = cards.filter({ hasText: PUSH });
    await expect
      .poll(() => push.getByTestId('suggestion-rule').textContent())
      .toBe(`git_push with command \`${PUSH}\` in project ${PROJECT}`);
    const history = await push.getByTestId('suggestion-history').textContent();
    expect(history).toContain(
      'Asked by shipper (5) in 1 session; decided by a person each time, via socket (3), cli (2).',
    );
    expect(await push.textContent()).toContain('You approved this 5 times and never denied it');
    await page.screenshot({ path: join(SCREENSHOTS, 'rule-suggestion-card.png'), fullPage: true });

    await push.getByTestId('suggestion-accept').click();
    await expect.poll(() => cards.count()).toBe(1);
    const { rules } = await admin.call('rules.list', {});
    expect(rules).toMatchObject([
      { action: 'git_push', command: PUSH, project: PROJECT, tier: 'auto' },
    ]);
    expect(
      await agent.request({ action: 'git_push', description: 'again', command: PUSH, wait: false }),
    ).toMatchObject({ status: 'approved', decidedBy: 'rule' });

    await cards.filter({ hasText: TESTS }).getByTestId('suggestion-snooze').click();
    await expect.poll(() => cards.count()).toBe(0);
    expect((await admin.call('suggestions.list', {})).suggestions).toEqual([]);
    const [snoozed] = (await admin.call('audit.query', { type: 'suggestion.snoozed' })).events;
    expect(snoozed!.data).toMatchObject({ via: 'dashboard' });
    expect(problems).toEqual([]);
    await context.close();
  });
});
