import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatButtons } from '../../../../main/remote/chat-buttons';
import { TelegramPresses } from '../../../../main/remote/telegram-presses';
import { TelegramApi } from '../../../../main/notify/telegram-api';
import { chatPressStage, waitingPush } from '../../../support/chat-presses';
import { EngineHarness } from '../../../support/engine-harness';
import { TelegramServer } from '../../../support/telegram-server';

/**
 * A press through the real pieces (engine over SQLite, decision links, the chat_buttons
 * records, a local Bot API server for the answer) with the engine's fake clock, so a button
 * can outlive its expiry without waiting a day.
 */
const TOKEN = '77:presses';
const ADA = { id: 9001, is_bot: false, first_name: 'Ada', username: 'ada' };

describe('a chat press after its button expired', () => {
  let h: EngineHarness;
  let telegram: TelegramServer;
  let presses: TelegramPresses;
  let buttons: ChatButtons;

  beforeEach(async () => {
    h = new EngineHarness();
    telegram = new TelegramServer(TOKEN);
    await telegram.listen();
    const stage = chatPressStage(h, { app: 'telegram', allowedUserIds: [String(ADA.id)] });
    buttons = stage.buttons;
    presses = new TelegramPresses({
      api: new TelegramApi(() => ({ apiBase: telegram.url, botToken: TOKEN })),
      presses: stage.presses,
      log: () => undefined,
    });
  });
  afterEach(async () => {
    await telegram.close();
    await h.close();
  });

  const waiting = () => waitingPush(h);

  it('is refused, decides nothing, is audited, and the presser is told it expired', async () => {
    const requestId = await waiting();
    const data = buttons.issue(requestId, 'approve');
    h.clock.advance(h.settings.get().dashboard.linkExpiryMs + 1);
    // Another request's buttons are issued meanwhile (which prunes old records): the late
    // press still learns its button expired, not that it is unknown.
    buttons.issue(requestId, 'deny');
    await presses.handle({ id: 'q1', from: ADA, data });
    expect(telegram.answers.get('q1')).toBe('This button has expired.');
    // Still waiting for a person (its agent timed out meanwhile): nothing decided it.
    const after = h.store.getRequest(requestId);
    expect(['pending', 'timed_out']).toContain(after?.status);
    expect(after?.decidedVia).toBeUndefined();
    expect(
      h.store.queryAudit({ type: 'chat.refused', limit: 10 }).map((e) => e.data),
    ).toContainEqual(expect.objectContaining({ reason: 'expired', app: 'telegram' }));
  });

  it('a press just before the expiry still decides', async () => {
    const requestId = await waiting();
    const data = buttons.issue(requestId, 'approve');
    h.clock.advance(h.settings.get().dashboard.linkExpiryMs - 1_000);
    await presses.handle({ id: 'q2', from: ADA, data });
    expect(telegram.answers.get('q2')).toBe('Approved.');
    expect(h.store.getRequest(requestId)?.status).toBe('approved');
  });
});
