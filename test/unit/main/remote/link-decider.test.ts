import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DecisionLinkService } from '../../../../main/remote/decision-link-service';
import { harnessDecisionLinks } from '../../../support/chat-presses';
import { EngineHarness, flush } from '../../../support/engine-harness';

const tokenOf = (url: string) => url.split('/d/')[1]!.replace(/\/act$/, '');

describe('link decider (the reply-topic and button path, over a real engine)', () => {
  let h: EngineHarness;
  let s: DecisionLinkService;
  beforeEach(() => {
    h = new EngineHarness();
    s = harnessDecisionLinks(h, 'http://127.0.0.1:7417/#secret=not-in-links');
  });
  afterEach(() => h.close());

  /** A request an agent is blocked on, and its answer when it comes. */
  async function waiting(description = 'push') {
    const a = h.hello();
    let answer: unknown;
    void Promise.resolve(
      h.engine.request(a, { action: 'git_push', description, urgency: 'normal', wait: true }),
    ).then((r) => (answer = r));
    await h.engine.durable();
    const [open] = h.store.listOpenRequests().filter((r) => r.description === description);
    return { requestId: open!.requestId, answer: () => answer };
  }

  const refusals = () =>
    h.store.queryAudit({ type: 'link.refused', limit: 100 }).map((e) => e.data);

  it('a button decides once, for the waiting agent; a replay is refused and audited', async () => {
    const { requestId, answer } = await waiting();
    const button = s.links.actionLinkFor(requestId, 'ntfy', 'approve');
    expect(button.url.startsWith('http://127.0.0.1:7417/d/')).toBe(true);
    expect(button.url).not.toContain('secret');
    expect(await s.decider.redeemAction(button.token, 'reply-topic')).toMatchObject({
      kind: 'decided',
      byThisLink: true,
      request: { status: 'approved', decidedVia: 'link:ntfy', scope: 'once' },
    });
    await flush();
    expect(answer()).toMatchObject({ status: 'approved', decidedBy: 'human' });
    expect(await s.decider.redeemAction(button.token, 'reply-topic')).toEqual({
      kind: 'refused',
      reason: 'replayed',
    });
    expect(refusals()).toEqual([
      { reason: 'replayed', transport: 'reply-topic', channel: 'ntfy', verified: true },
    ]);
  });

  it('a deny button carries the reason to the agent', async () => {
    const { requestId, answer } = await waiting();
    const button = s.links.actionLinkFor(requestId, 'webhook', 'deny');
    await s.decider.redeemAction(button.token, 'local', 'not on a Friday');
    await flush();
    expect(answer()).toMatchObject({ status: 'denied', reason: 'not on a Friday' });
  });

  it('expires by the engine clock, and a page link is not a button', async () => {
    const { requestId } = await waiting();
    const page = tokenOf(s.links.decisionLinkFor(requestId, 'email'));
    expect(await s.decider.redeemAction(page, 'remote')).toEqual({
      kind: 'refused',
      reason: 'not_allowed',
    });
    const button = s.links.actionLinkFor(requestId, 'sms', 'approve');
    h.clock.advance(h.settings.get().dashboard.linkExpiryMs);
    expect(await s.decider.redeemAction(button.token, 'remote')).toEqual({
      kind: 'refused',
      reason: 'expired',
    });
    // The agent's wait timed out meanwhile; the request still waits for a person, undecided.
    expect(h.engine.admin.call('request.get', { requestId }).request.status).toBe('timed_out');
    expect(
      refusals()
        .map((d) => d?.reason)
        .sort(),
    ).toEqual(['expired', 'not_allowed']);
  });

  it('viewing never decides nor spends; a request decided elsewhere is shown, the link unspent', async () => {
    const { requestId } = await waiting();
    const page = tokenOf(s.links.decisionLinkFor(requestId, 'email'));
    for (let i = 0; i < 3; i++)
      expect(await s.decider.view(page, 'remote')).toMatchObject({
        kind: 'open',
        agentWaiting: true,
        decisions: ['approve', 'approve_session', 'deny'],
      });
    expect(h.engine.admin.call('request.get', { requestId }).request.status).toBe('pending');
    h.engine.admin.call('decide', { requestId, decision: 'deny', scope: 'once', via: 'cli' });
    await h.engine.durable();
    expect(await s.decider.view(page, 'remote')).toMatchObject({
      kind: 'decided',
      request: { status: 'denied', decidedVia: 'cli' },
    });
    const button = s.links.actionLinkFor(requestId, 'ntfy', 'approve');
    expect(await s.decider.redeemAction(button.token, 'remote')).toMatchObject({
      kind: 'decided',
      byThisLink: false,
      request: { status: 'denied' },
    });
    expect(refusals()).toEqual([]);
  });

  it('a page POST needs its own form token, bound to the link', async () => {
    const { requestId } = await waiting();
    const a = tokenOf(s.links.decisionLinkFor(requestId, 'email'));
    const b = tokenOf(s.links.decisionLinkFor(requestId, 'email'));
    const viewB = await s.decider.view(b, 'local');
    if (viewB.kind !== 'open') throw new Error('expected an open page');
    // B's form token does not work for A.
    expect(
      await s.decider.decideFromPage(
        a,
        { decision: 'approve', formToken: viewB.formToken },
        'local',
      ),
    ).toEqual({ kind: 'refused', reason: 'bad_form' });
    expect(
      await s.decider.decideFromPage(
        b,
        { decision: 'approve_session', formToken: viewB.formToken },
        'local',
      ),
    ).toMatchObject({ kind: 'decided', request: { status: 'approved', scope: 'session' } });
  });
});
