import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../shared/domain';
import { byRequestAttention } from '../../shared/queue-order';
import { openPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { dashboardForFile } from './harness';

// The review queue in the order of what needs the person first — blocked agents, then
// urgency, then age — alike in the daemon's pages, the dashboard and `gatehouse list`.

const ctx = dashboardForFile();

describe('the review queue puts what needs the person first, on every surface', () => {
  it('blocked agents and urgency first, then the oldest, in pending.list, the dashboard and the CLI', async () => {
    const filer = await ctx.daemon.agent('filer');
    const waiter = await ctx.daemon.agent('waiter');
    // Filed oldest first: a normal and a high request whose agents went on (wait: false), then
    // a low and a high request whose agents wait for the answer (blocked).
    await filer.request({
      action: 'git_push',
      description: 'A normal, not waited on',
      wait: false,
    });
    await filer.request({
      action: 'git_push',
      description: 'B high, not waited on',
      urgency: 'high',
      wait: false,
    });
    const admin = await ctx.daemon.admin();
    const filed = (prefix: string) => (r: RequestRecord) => r.description.startsWith(prefix);
    const waits = [
      waiter.request({ action: 'git_push', description: 'C low, agent blocked', urgency: 'low' }),
    ];
    await waitForPending(admin, filed('C low'));
    waits.push(
      waiter.request({ action: 'git_push', description: 'D high, agent blocked', urgency: 'high' }),
    );
    await waitForPending(admin, filed('D high'));
    const expected = ['D high', 'C low', 'B high', 'A normal'];
    const order = (rs: { description: string }[]) => rs.map((r) => r.description.split(',')[0]);

    // The daemon's default order, one request a page (the cursor keeps the order).
    const paged: RequestRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await admin.call('pending.list', { limit: 1, ...(cursor ? { cursor } : {}) });
      paged.push(...page.requests);
      cursor = page.nextCursor;
    } while (cursor);
    expect(order(paged)).toEqual(expected);
    // The shared function sorts them the same way.
    expect(order([...paged].reverse().sort(byRequestAttention))).toEqual(expected);

    // gatehouse list
    const listed = await ctx.daemon.daemon.cli(['list']);
    const rows = listed.stdout.split('\n').filter((l) => l.startsWith('req-'));
    expect(rows.map((r) => /([ABCD] \w+)[, ]/.exec(r)?.[1])).toEqual(expected);

    // The dashboard's list.
    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(ctx.daemon.url);
    const list = page.getByTestId('pending-list');
    await list.locator('[data-testid=pending-item]').nth(3).waitFor();
    const ids = await list
      .locator('[data-testid=pending-item]')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-request-id')));
    expect(ids).toEqual(paged.map((r) => r.requestId));

    // A decision elsewhere releases D: the rest keep their order.
    await admin.call('decide', { requestId: paged[0]!.requestId, decision: 'approve' });
    await list.locator(`[data-request-id="${paged[0]!.requestId}"]`).waitFor({ state: 'detached' });
    const after = await list
      .locator('[data-testid=pending-item]')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-request-id')));
    expect(after).toEqual(paged.slice(1).map((r) => r.requestId));
    expect(problems).toEqual([]);
    await context.close();
    await admin.call('decide', { requestId: paged[1]!.requestId, decision: 'deny' });
    await Promise.all(waits);
  });
});
