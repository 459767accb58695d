import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatButtons } from '../../../../main/remote/chat-buttons';
import type { ChatPresses } from '../../../../main/remote/chat-presses';
import { chatPressStage, waitingPush } from '../../../support/chat-presses';
import { EngineHarness, flush } from '../../../support/engine-harness';

const ADA = { userId: 'U0ADA', userLabel: '@ada (U0ADA)' };
const MALLORY = { userId: 'U0MAL', userLabel: '@mallory (U0MAL)' };

/**
 * The press handling every chat app shares, over a real engine and store with a fake clock:
 * what only time shows (an expired button, the refusal audit's per-minute limit).
 */
describe('chat presses (the apps’ common way from a press to a decision)', () => {
  let h: EngineHarness;
  let buttons: ChatButtons;
  let presses: ChatPresses;
  beforeEach(() => {
    h = new EngineHarness();
    ({ buttons, presses } = chatPressStage(h, { app: 'slack', allowedUserIds: [ADA.userId] }));
  });
  afterEach(() => h.close());

  const waiting = (description: string) => waitingPush(h, description);
  const audits = (type: string) =>
    h.store.queryAudit({ type, limit: 200 }).map((e) => ({ requestId: e.requestId, ...e.data }));

  it('an allowed press decides as chat:slack and says who pressed for the edit', async () => {
    const requestId = await waiting('push');
    const data = buttons.issue(requestId, 'approve');
    expect(await presses.decide({ ...ADA, data })).toMatchObject({
      text: 'Approved.',
      requestId,
      decided: { kind: 'decided', byThisLink: true },
    });
    await flush();
    expect(h.store.getRequest(requestId)).toMatchObject({
      status: 'approved',
      decidedVia: 'chat:slack',
    });
    expect(presses.takePresser(requestId)).toBe('@ada (U0ADA)');
    expect(presses.takePresser(requestId)).toBeUndefined();
    expect(audits('chat.decided')).toEqual([
      { requestId, app: 'slack', user: '@ada (U0ADA)', decision: 'approve' },
    ]);
  });

  it('a button past its expiry decides nothing, even for an allowed person, and names no presser', async () => {
    h.settings.set('dashboard.linkExpiryMs', 60_000);
    const requestId = await waiting('late');
    const data = buttons.issue(requestId, 'approve');
    h.clock.advance(61_000);
    expect(await presses.decide({ ...ADA, data })).toEqual({
      text: 'This button has expired.',
      refused: 'expired',
    });
    await flush();
    expect(h.store.getRequest(requestId)?.status).toBe('pending');
    // The button's record says it expired before its token is tried.
    expect(audits('chat.refused')).toContainEqual(
      expect.objectContaining({ reason: 'expired', app: 'slack' }),
    );
    expect(presses.presser(requestId)).toBeUndefined();
  });

  it('a press its token refuses (already used) names no presser and decides nothing more', async () => {
    const requestId = await waiting('twice');
    const data = buttons.issue(requestId, 'deny');
    expect((await presses.decide({ ...ADA, data })).text).toBe('Denied.');
    await flush();
    presses.takePresser(requestId);
    const again = await presses.decide({ ...ADA, data });
    expect(again.decided).toBeUndefined();
    expect(again.refused).toBeDefined();
    expect(presses.presser(requestId)).toBeUndefined();
    expect(h.store.getRequest(requestId)?.status).toBe('denied');
  });

  it('audits at most 30 refusals a minute, and says how many it only counted', async () => {
    const requestId = await waiting('spam');
    const data = buttons.issue(requestId, 'approve');
    for (let i = 0; i < 35; i++)
      expect((await presses.decide({ ...MALLORY, data })).text).toMatch(/not allowed/);
    expect(audits('chat.refused')).toHaveLength(30);
    h.clock.advance(60_000);
    await presses.decide({ ...MALLORY, data });
    const refused = audits('chat.refused');
    expect(refused).toHaveLength(31);
    expect(refused).toContainEqual(expect.objectContaining({ suppressedBefore: 5 }));
    await flush();
    expect(h.store.getRequest(requestId)?.status).toBe('pending');
  });
});
