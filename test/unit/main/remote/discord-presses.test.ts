import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DiscordApi, type DiscordMessageBody } from '../../../../main/notify/discord-api';
import type { ChatButtons } from '../../../../main/remote/chat-buttons';
import { DiscordPresses } from '../../../../main/remote/discord-presses';
import { chatPressStage, waitingPush } from '../../../support/chat-presses';
import { DiscordServer, type PostedMessage } from '../../../support/discord-server';
import { EngineHarness } from '../../../support/engine-harness';

const TOKEN = 'discord-unit-bot-token';
const CHANNEL = '1100000000000000001';
const ADA = { id: '2200000000000000001', username: 'ada' };
const DECIDED: DiscordMessageBody = { embeds: [{ title: 'decided' }], components: [] };

/**
 * A press handed to Discord's press handling as the Gateway delivers it, over a real engine
 * and store and the local Discord: a decision that takes longer than 1.5 s (the decider is
 * slowed) is acknowledged in time (type 6) and the outcome sent as a follow-up.
 */
describe('Discord presses: answered within 3 s, deferred when the decision is slow', () => {
  let discord: DiscordServer;
  let h: EngineHarness;
  let buttons: ChatButtons;
  let delayMs = 0;
  let done: [string, boolean][];
  let presses: DiscordPresses;
  beforeAll(async () => {
    discord = new DiscordServer(TOKEN, CHANNEL);
    await discord.listen();
  });
  afterAll(() => discord.close());
  beforeEach(() => {
    h = new EngineHarness();
    const stage = chatPressStage(h, {
      app: 'discord',
      allowedUserIds: [ADA.id],
      // The real decider, reached only after `delayMs`: a decision as slow as the test says.
      decider: (real) => ({
        redeemAction: async (token, channel) => {
          await new Promise((r) => setTimeout(r, delayMs));
          return real.redeemAction(token, channel);
        },
      }),
    });
    buttons = stage.buttons;
    const chatPresses = stage.presses;
    done = [];
    presses = new DiscordPresses({
      api: new DiscordApi(() => ({ apiBase: discord.apiBase, botToken: TOKEN })),
      presses: chatPresses,
      decidedMessage: () => DECIDED,
      done: (requestId, updatedInPlace) => done.push([requestId, updatedInPlace]),
      log: () => undefined,
    });
  });
  afterEach(() => h.close());

  async function pressApprove(description: string) {
    const requestId = await waitingPush(h, description);
    const message: PostedMessage = {
      id: '1300000000000000001',
      channel_id: CHANNEL,
      content: '',
      embeds: [],
      components: [],
      edits: [],
    };
    discord.messages.push(message);
    const press = discord.press(ADA, message, buttons.issue(requestId, 'approve'));
    const started = Date.now();
    await presses.handle(discord.created.get(press));
    return { requestId, press, message, tookMs: Date.now() - started };
  }

  it('a decision within 1.5 s updates the message in its answer (type 7), no follow-up', async () => {
    delayMs = 0;
    const { requestId, press, message } = await pressApprove('fast');
    expect(discord.answers.get(press)?.type).toBe(7);
    expect(message.edits).toHaveLength(1);
    expect(discord.followUps.has(press)).toBe(false);
    expect(done).toEqual([[requestId, true]]);
  });

  it('a decision slower than Discord’s 3 s is acknowledged at once (type 6), decided, and the outcome followed up to the presser only', async () => {
    delayMs = 3_200;
    const { requestId, press, message, tookMs } = await pressApprove('slow');
    expect(tookMs).toBeGreaterThanOrEqual(3_100);
    // Acknowledged within Discord's 3 s (a later answer is refused as an unknown interaction).
    expect(discord.answers.get(press)).toEqual({ type: 6, data: {} });
    expect(discord.callbacks.get(press)).toBe(1);
    expect(h.store.getRequest(requestId)).toMatchObject({
      status: 'approved',
      decidedVia: 'chat:discord',
    });
    // The message is left to the edit after any decision; the presser is told.
    expect(message.edits).toHaveLength(0);
    expect(done).toEqual([[requestId, false]]);
    expect(discord.followUps.get(press)).toEqual([{ content: 'Approved.', flags: 64 }]);
  });
});
