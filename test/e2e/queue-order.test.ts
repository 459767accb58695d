import { describe, expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { RequestRecord } from '../../shared/domain';
import { byRequestAttention, byRequestAttentionAt } from '../../shared/queue-order';
import { openPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { dashboardForFile } from './harness';

// The review queue in the order of what needs the person first — blocked agents, then
// urgency, then age — alike in the daemon's pages, the dashboard and `gatehouse list`.

const ctx = dashboardForFile();

/** Empties the queue: a test starts from no waiting request. */
async function denyAllWaiting(admin: AdminClient): Promise<void> {
  const left = await admin.call('pending.list', { limit: 100 });
  if (left.requests.length > 0)
    await admin.call('decideMany', {
      requestIds: left.requests.map((r) => r.requestId),
      decision: 'deny',
    });
}

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
  it('requests of gone agents come after connected ones of the same urgency, filtered by it on the dashboard', async () => {
    const admin = await ctx.daemon.admin();
    // Start from an empty queue (the test above leaves two requests).
    await denyAllWaiting(admin);
    const leaver = await ctx.daemon.agent('leaver');
    const stayer = await ctx.daemon.agent('stayer');
    const filed = (prefix: string) => (r: RequestRecord) => r.description.startsWith(prefix);
    // Oldest first: a high request whose agent waits and then goes away (its call ends with
    // the connection), and a low one it filed and went on from.
    const leaverWait = leaver
      .request({ action: 'git_push', description: 'G1 high, agent gone', urgency: 'high' })
      .catch((e: unknown) => e);
    await waitForPending(admin, filed('G1'));
    await leaver.request({
      action: 'git_push',
      description: 'G2 low, agent gone',
      urgency: 'low',
      wait: false,
    });
    await stayer.request({
      action: 'git_push',
      description: 'S1 high, connected',
      urgency: 'high',
      wait: false,
    });
    const stayerWait = stayer.request({
      action: 'git_push',
      description: 'S2 low, connected and blocked',
      urgency: 'low',
    });
    await waitForPending(admin, filed('S2'));
    await stayer.request({ action: 'git_push', description: 'S3 normal, connected', wait: false });
    leaver.close();
    await leaverWait;
    const deadline = Date.now() + 5000;
    while ((await admin.call('pending.list', { agentConnected: false, limit: 1 })).total !== 2) {
      if (Date.now() > deadline) throw new Error('the leaver never showed as gone');
      await new Promise((r) => setTimeout(r, 20));
    }

    // The blocked agent first; then high before normal before low, connected before gone
    // within each (the gone agent's wait counts no more: nobody waits).
    const expected = ['S2', 'S1', 'G1', 'S3', 'G2'];
    const order = (rs: { description: string }[]) => rs.map((r) => r.description.slice(0, 2));
    const paged: RequestRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await admin.call('pending.list', { limit: 1, ...(cursor ? { cursor } : {}) });
      paged.push(...page.requests);
      cursor = page.nextCursor;
    } while (cursor);
    expect(order(paged)).toEqual(expected);
    expect(order([...paged].reverse().sort(byRequestAttention))).toEqual(expected);
    const listed = await ctx.daemon.daemon.cli(['list']);
    const rows = listed.stdout.split('\n').filter((l) => l.startsWith('req-'));
    expect(rows.map((r) => /([SG]\d) /.exec(r)?.[1])).toEqual(expected);
    // status counts them for the tray's hover text.
    expect((await admin.call('status', {})).pendingAgentsAway).toEqual({
      paused: 0,
      killed: 0,
      gone: 2,
    });
    expect((await ctx.daemon.daemon.cli(['status'])).stdout).toContain(
      'Of those, 2 from gone agents: no agent acts on their answer now',
    );
    // A paused agent's requests count as paused, connected or not; resumed, they count no more.
    await admin.call('pause', { agent: 'stayer' });
    expect((await admin.call('status', {})).pendingAgentsAway).toEqual({
      paused: 3,
      killed: 0,
      gone: 2,
    });
    await admin.call('pause', {});
    expect((await admin.call('status', {})).pendingAgentsAway).toEqual({
      paused: 5,
      killed: 0,
      gone: 0,
    });
    await admin.call('resume', {});
    await admin.call('resume', { agent: 'stayer' });
    expect((await admin.call('status', {})).pendingAgentsAway).toEqual({
      paused: 0,
      killed: 0,
      gone: 2,
    });

    // The dashboard: the same order, each gone agent marked, and a filter for either kind.
    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(ctx.daemon.url);
    const list = page.getByTestId('pending-list');
    const items = list.locator('[data-testid=pending-item]');
    await items.nth(4).waitFor();
    const shown = () =>
      items.evaluateAll((els) => els.map((e) => e.getAttribute('data-request-id')));
    const idsOf = (labels: string[]) =>
      labels.map((l) => paged.find((r) => r.description.startsWith(l))!.requestId);
    expect(await shown()).toEqual(idsOf(expected));
    const gone = await list
      .locator('[data-testid=pending-item]:has([data-testid=pending-agent-presence])')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-request-id')));
    expect(gone).toEqual(idsOf(['G1', 'G2']));

    const filter = page.getByTestId('pending-connection-filter');
    await filter.selectOption('gone');
    await items.nth(2).waitFor({ state: 'detached' });
    expect(await shown()).toEqual(idsOf(['G1', 'G2']));
    await filter.selectOption('connected');
    await items.nth(3).waitFor({ state: 'detached' });
    await list.locator(`[data-request-id="${idsOf(['S3'])[0]}"]`).waitFor();
    expect(await shown()).toEqual(idsOf(['S2', 'S1', 'S3']));
    await filter.selectOption('all');
    await items.nth(4).waitFor();
    expect(await shown()).toEqual(idsOf(expected));
    expect(problems).toEqual([]);
    await context.close();

    await admin.call('decideMany', { requestIds: paged.map((r) => r.requestId), decision: 'deny' });
    await stayerWait;
    admin.close();
  });

  it('an inferred urgency ranks the queue (a force push to main before an older normal request) until the person turns inference off; the phone page says why', async () => {
    const admin = await ctx.daemon.admin();
    await denyAllWaiting(admin);
    const filer = await ctx.daemon.agent('inferrer');
    // Both filed `normal` and not waited on; the later one force-pushes to main.
    await filer.request({ action: 'tidy_logs', description: 'N1 normal', wait: false });
    await filer.request({
      action: 'git_push',
      description: 'F1 force push',
      command: 'git push --force origin main',
      wait: false,
    });
    const order = async () =>
      (await admin.call('pending.list', {})).requests.map((r) => r.description.slice(0, 2));
    const listed = async () =>
      (await ctx.daemon.daemon.cli(['list'])).stdout
        .split('\n')
        .filter((l) => l.startsWith('req-'))
        .map((l) => /([NF]1) /.exec(l)?.[1]);
    expect(await order()).toEqual(['F1', 'N1']);
    expect(await listed()).toEqual(['F1', 'N1']);
    const { requests } = await admin.call('pending.list', {});
    // The shared order with inference agrees; without it the older request comes first.
    expect(
      [...requests]
        .reverse()
        .sort(byRequestAttentionAt(Date.now()))
        .map((r) => r.description.slice(0, 2)),
    ).toEqual(['F1', 'N1']);
    expect([...requests].sort(byRequestAttention).map((r) => r.description.slice(0, 2))).toEqual([
      'N1',
      'F1',
    ]);

    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(ctx.daemon.url);
    const list = page.getByTestId('pending-list');
    const items = list.locator('[data-testid=pending-item]');
    await items.nth(1).waitFor();
    const shown = () =>
      items.evaluateAll((all) => all.map((i) => i.textContent?.match(/[NF]1/)?.[0]));
    expect(await shown()).toEqual(['F1', 'N1']);

    // The phone page shows the inferred urgency and why.
    const push = requests.find((r) => r.description.startsWith('F1'))!;
    const { url } = await admin.call('request.link', { requestId: push.requestId, channel: 'sms' });
    const phone = await openPage(ctx.browser, { width: 390, height: 844 });
    await phone.page.goto(url);
    const inferred = phone.page.getByTestId('phone-inferred');
    expect(await inferred.textContent()).toMatch(/inferred high: .*a force push/);
    expect(await phone.page.getByTestId('phone-gist').textContent()).toContain('urgent');
    await phone.context.close();

    // Inference off: every surface goes back to the agents' own urgencies (oldest first).
    await admin.call('settings.set', { key: 'requests.inferUrgency', value: false });
    try {
      expect(await order()).toEqual(['N1', 'F1']);
      expect(await listed()).toEqual(['N1', 'F1']);
      await page.waitForFunction(
        `[...document.querySelectorAll('[data-testid=pending-item]')].map((i) => i.textContent.match(/[NF]1/)?.[0]).join() === 'N1,F1'`,
      );
      const phoneOff = await openPage(ctx.browser, { width: 390, height: 844 });
      const again = await admin.call('request.link', { requestId: push.requestId, channel: 'sms' });
      await phoneOff.page.goto(again.url);
      await phoneOff.page.getByTestId('phone-urgency').waitFor();
      expect(await phoneOff.page.getByTestId('phone-inferred').count()).toBe(0);
      await phoneOff.context.close();
    } finally {
      await admin.call('settings.set', { key: 'requests.inferUrgency', value: true });
    }
    expect(problems).toEqual([]);
    await context.close();
    await admin.call('decideMany', {
      requestIds: requests.map((r) => r.requestId),
      decision: 'deny',
    });
    admin.close();
  });
});
