import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { RuleOffers } from '../../shared/hub-rule-offers';
import { hubRequestRow } from '../support/hub-page';
import { hubWithMachineForFile, SCREENSHOTS } from './harness';

const PROJECT = '/work/p';
const APPLY = 'kubectl apply -f k8s/prod.yaml';

/**
 * Deciding on the team dashboard in a real browser, against a real hub (embedded PGlite) and
 * a real daemon joined to it: "always" shows the rule the machine previewed, widened only
 * among the machine's own offers, and the machine writes exactly that rule; an envelope of
 * two uses, a message and a condition travel with an approval; the queue lists what the
 * machine's queue would rank first (the urgency inferred) first.
 */
describe('team dashboard: always with the machine’s preview, terms, inferred order', () => {
  const stage = hubWithMachineForFile({ agent: 'ops', project: PROJECT });
  let token: string;

  const deploy = (command: string) =>
    stage.agent.request({ action: 'deploy', description: command, command, wait: false });

  /** Waits until the dashboard lists the request, then opens it. */
  async function open(page: Page, id: string): Promise<void> {
    await hubRequestRow(page, id).waitFor({ timeout: 20_000 });
    await hubRequestRow(page, id).getByTestId('hub-request-open').click();
    await page.getByTestId('hub-decide').waitFor();
  }

  beforeAll(async () => {
    token = await stage.hub.person('ann-cli');
  });

  it('"always", widened one notch, writes exactly that offered rule; the next call is auto', async () => {
    const q = await deploy(APPLY);
    const preview = await stage.admin.call('rules.preview', { requestId: q.requestId });
    const { page } = stage.watched;
    await open(page, q.requestId);
    const text = page.getByTestId('hub-rule-text');
    expect(await text.textContent()).toBe(preview.describe[0]);
    await page.getByTestId('hub-rule-wider').click();
    expect(await text.textContent()).toBe(preview.describe[1]);
    await page.screenshot({ path: join(SCREENSHOTS, 'hub-always-preview.png') });
    await page.getByTestId('hub-approve-always').click();
    await expect
      .poll(
        async () => (await stage.admin.call('request.get', { requestId: q.requestId })).request,
        {
          timeout: 20_000,
        },
      )
      .toMatchObject({ status: 'approved', decidedVia: 'hub:ann' });
    const { rules } = await stage.admin.call('rules.list', {});
    expect(rules).toHaveLength(1);
    const { ruleId: _id, createdAt: _at, note: _note, tier, source: _s, ...matchers } = rules[0]!;
    expect(tier).toBe('auto');
    expect(matchers).toEqual(preview.widenings[0]);
    expect(preview.widenings[0]).toEqual({
      action: 'deploy',
      commandPrefix: 'kubectl apply',
      project: PROJECT,
    });
    expect(await deploy('kubectl apply -f k8s/staging.yaml')).toMatchObject({
      status: 'approved',
      decidedBy: 'rule',
    });
    expect((await deploy('kubectl delete namespace prod')).status).toBe('queued');
    expect(stage.watched.problems).toEqual([]);
  });

  it('an envelope of 2 uses, a message and a condition are honoured; bad terms are refused first', async () => {
    const command = 'helm upgrade web ./chart';
    const q = await deploy(command);
    const { page } = stage.watched;
    await open(page, q.requestId);
    await page.getByTestId('hub-terms-uses').fill('1.5');
    await page.getByTestId('hub-approve-once').click();
    expect(await page.getByTestId('hub-terms-error').textContent()).toMatch(/^Uses: /);
    expect((await stage.admin.call('request.get', { requestId: q.requestId })).request.status).toBe(
      'pending',
    );
    await page.getByTestId('hub-terms-uses').fill('2');
    await page.getByTestId('hub-terms-message').fill('twice more at most');
    await page.getByTestId('hub-terms-conditions').fill('only the web chart');
    await page.getByTestId('hub-approve-once').click();
    await expect
      .poll(
        async () => (await stage.admin.call('request.get', { requestId: q.requestId })).request,
        {
          timeout: 20_000,
        },
      )
      .toMatchObject({
        status: 'approved',
        decidedVia: 'hub:ann',
        message: 'twice more at most',
        conditions: ['only the web chart'],
      });
    expect(await deploy(command)).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    expect(await deploy(command)).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    // Two uses, spent: the third asks.
    expect((await deploy(command)).status).toBe('queued');
    expect(stage.watched.problems).toEqual([]);
  });

  it('lists a later request the machine would infer urgent (production) above an earlier plain one', async () => {
    const plain = await stage.agent.request({
      action: 'send_email',
      description: 'mail the weekly report',
      wait: false,
    });
    const prod = await stage.agent.request({
      action: 'send_email',
      description: 'mail the production on-call',
      target: 'oncall-production@example.com',
      wait: false,
    });
    const { page } = stage.watched;
    await hubRequestRow(page, prod.requestId).waitFor({ timeout: 20_000 });
    await hubRequestRow(page, plain.requestId).waitFor({ timeout: 20_000 });
    const ids = await page
      .getByTestId('hub-request')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-request-id')));
    expect(ids.indexOf(prod.requestId)).toBeLessThan(ids.indexOf(plain.requestId));
    expect(await hubRequestRow(page, prod.requestId).getByTestId('hub-urgency').textContent()).toBe(
      'high (inferred)',
    );
    expect(
      await hubRequestRow(page, plain.requestId).getByTestId('hub-urgency').textContent(),
    ).toBe('normal');
    // The CLI's pages come in the same order.
    const listed = await stage.hub.api('GET', '/api/requests/page?waiting=1', { token });
    const order = (listed.body.requests as { request: { requestId: string } }[]).map(
      (r) => r.request.requestId,
    );
    expect(order.indexOf(prod.requestId)).toBeLessThan(order.indexOf(plain.requestId));
    const one = await stage.hub.api('GET', `/api/requests/one?id=${plain.requestId}`, { token });
    expect(RuleOffers.safeParse(one.body.offers).success).toBe(true);
  });
});
