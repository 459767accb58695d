import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { Urgency } from '../../../shared/domain';
import { ChatStage } from '../../support/chat-stage';
import type { TestDaemon } from '../../support/daemon';
import { TelegramServer, type SentMessage } from '../../support/telegram-server';

/**
 * Telegram end to end, with the real daemon and a local Bot API server: requests are posted
 * with inline buttons, presses come back through `getUpdates` exactly as Telegram delivers
 * them, and every refusal is checked to have decided nothing.
 */
const BOT_TOKEN = '123456:test-bot-token';
const CHAT_ID = '9001';
const ALLOWED = { id: 9001, first_name: 'Ada', username: 'ada' };
const STRANGER = { id: 666, first_name: 'Mallory', username: 'mallory' };

let telegram: TelegramServer;
let stage: ChatStage;
let daemon: TestDaemon;
let admin: AdminClient;
const audits = (type: string) => stage.audits(type);

beforeAll(async () => {
  telegram = new TelegramServer(BOT_TOKEN);
  await telegram.listen();
  stage = await ChatStage.start([
    ['notifications.channels.telegram.apiBase', telegram.url],
    ['notifications.channels.telegram.botToken', BOT_TOKEN],
    ['notifications.channels.telegram.chatId', CHAT_ID],
    ['notifications.channels.telegram.allowedUserIds', JSON.stringify([String(ALLOWED.id)])],
    ['notifications.channels.telegram.enabled', 'true'],
  ]);
  ({ daemon, admin } = stage);
  await telegram.until(() => telegram.calls.includes('getUpdates'));
});

afterAll(async () => {
  await stage?.stop();
  await telegram?.close();
});

/** Files a request that blocks its agent, and waits for its Telegram message. */
async function waitingRequest(agentName: string, action: string, urgency: Urgency = 'high') {
  const { answer } = await stage.fileWaiting(agentName, action, urgency);
  let message: SentMessage | undefined;
  await telegram.until(() => {
    message = telegram.messages.find((m) => m.text.startsWith(`${agentName} wants to ${action}`));
    return message !== undefined;
  });
  const button = (label: string): string => {
    const found = message!.keyboard?.flat().find((b) => b.text === label);
    if (!found) throw new Error(`no ${label} button`);
    return found.callback_data;
  };
  return { answer, message: message!, button };
}

async function answered(queryId: string): Promise<string | undefined> {
  await telegram.until(() => telegram.answers.has(queryId));
  return telegram.answers.get(queryId);
}

describe('Telegram: post, press, decide, edit (outbound only)', () => {
  it('posts what, why, agent and risk with Approve / Deny / session buttons whose data is short', async () => {
    const { message, button, answer } = await waitingRequest('tg-show', 'deploy');
    expect(message.chat_id).toBe(CHAT_ID);
    expect(message.text).toContain('deploy for the test');
    expect(message.text).toContain('Agent: tg-show');
    for (const label of ['Approve', 'Deny', 'Approve for this session'])
      expect(Buffer.byteLength(button(label))).toBeLessThanOrEqual(64);
    telegram.press(ALLOWED, message, button('Deny'));
    expect((await answer).status).toBe('denied');
  });

  it('a press by an allowed user approves the waiting agent; the message then says who, how and when, without buttons', async () => {
    const { answer, message, button } = await waitingRequest('tg-bot', 'publish_package');
    const deny = button('Deny');
    const q = telegram.press(ALLOWED, message, button('Approve'));
    const result = await answer;
    expect(result.status).toBe('approved');
    expect(await answered(q)).toBe('Approved.');
    const { request } = await admin.call('request.get', { requestId: result.requestId });
    expect(request.decidedVia).toBe('chat:telegram');
    await telegram.until(() => message.edits.length === 1);
    expect(message.keyboard).toBeUndefined();
    expect(message.edits[0]).toMatch(/Approved by @ada \(9001\) via chat:telegram at \d{4}-/);
    expect(await audits('chat.decided')).toContainEqual(
      expect.objectContaining({ requestId: result.requestId, user: '@ada (9001)' }),
    );

    // The same press again (a replayed update, or a second tap): refused, nothing decided.
    const again = telegram.press(ALLOWED, message, deny);
    expect(await answered(again)).toMatch(/already/i);
    const after = await admin.call('request.get', { requestId: result.requestId });
    expect(after.request.status).toBe('approved');
  });

  it('a press by a user not on the allow-list decides nothing, is answered "not allowed" and audited', async () => {
    const { message, button } = await waitingRequest('tg-bot-2', 'send_email');
    const q = telegram.press(STRANGER, message, button('Approve'));
    expect(await answered(q)).toMatch(/not allowed/);
    const pending = await admin.call('pending.list', {});
    const req = pending.requests.find((r) => r.action === 'send_email');
    expect(req?.status).toBe('pending');
    expect(await audits('chat.refused')).toContainEqual(
      expect.objectContaining({ reason: 'not_allowed_user', user: '@mallory (666)' }),
    );
    // The agent talking to the bot decides nothing either: text is never read.
    telegram.say(STRANGER, button('Approve'));
    telegram.say(ALLOWED, button('Approve'));
    await new Promise((r) => setTimeout(r, 300));
    expect((await admin.call('request.get', { requestId: req!.requestId })).request.status).toBe(
      'pending',
    );
    // Decided in the CLI: the Telegram message is edited, its buttons removed.
    expect((await daemon.cli(['deny', req!.requestId])).code).toBe(0);
    await telegram.until(() => message.edits.length === 1);
    expect(message.keyboard).toBeUndefined();
    expect(message.edits[0]).toMatch(/Denied by a person via cli/);
  });

  it('a button of one request pressed on the message of another, and a forged button, are refused', async () => {
    const first = await waitingRequest('tg-bot-3', 'rotate_keys');
    const second = await waitingRequest('tg-bot-4', 'drop_table');
    // First's Approve data delivered as if tapped on second's message.
    const swapped = telegram.press(ALLOWED, second.message, first.button('Approve'));
    expect(await answered(swapped)).toMatch(/another request/);
    const data = first.button('Approve');
    const forged = `${data.slice(0, -2)}${data.endsWith('AA') ? 'BB' : 'AA'}`;
    const f = telegram.press(ALLOWED, first.message, forged);
    expect(await answered(f)).toMatch(/not valid/);
    const pending = (await admin.call('pending.list', {})).requests.map((r) => r.action);
    expect(pending).toEqual(expect.arrayContaining(['rotate_keys', 'drop_table']));
    expect(await audits('chat.refused')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: 'other_request' }),
        expect.objectContaining({ reason: 'bad_form' }),
      ]),
    );
    telegram.press(ALLOWED, first.message, first.button('Approve'));
    telegram.press(ALLOWED, second.message, second.button('Deny'));
    expect((await first.answer).status).toBe('approved');
    expect((await second.answer).status).toBe('denied');
  });

  it('the poll dropped mid-flow (server restarted) resumes, and a press sent meanwhile is handled once', async () => {
    const { answer, message, button } = await waitingRequest('tg-bot-5', 'push_main');
    const port = telegram.port;
    await telegram.close();
    const q = telegram.press(ALLOWED, message, button('Approve'));
    await new Promise((r) => setTimeout(r, 300));
    await telegram.listen(port);
    const result = await answer;
    expect(result.status).toBe('approved');
    expect(await answered(q)).toBe('Approved.');
    // The next poll confirms it (offset past it): it is not handed over again.
    const polls = telegram.calls.filter((c) => c === 'getUpdates').length;
    await telegram.until(() => telegram.calls.filter((c) => c === 'getUpdates').length > polls);
    await new Promise((r) => setTimeout(r, 200));
    expect(telegram.deliveries.get(q)).toBe(1);
    const decided = (await audits('chat.decided')).filter((a) => a.decision === 'approve');
    expect(decided.filter((a) => a.requestId === result.requestId)).toHaveLength(1);
  });

  it('quiet hours hold a normal request until they end; a high one still gets through', async () => {
    // Held, not lost: quiet hours over, it is posted.
    await stage.expectQuietHoursHold(
      'tidy_logs',
      (action) => telegram.messages.some((m) => m.text.includes(action)),
      (ready) => telegram.until(ready),
      () => waitingRequest('tg-loud', 'wipe_disk', 'high'),
    );
  });

  it('a failing poll (a revoked token: 401 from getUpdates) shows in the channel health of `gatehouse status`, and clears once it works again', async () => {
    const health = async () => {
      const r = await daemon.cli(['status', '--json']);
      const s = JSON.parse(r.stdout) as {
        channels?: {
          channel: string;
          state: string;
          lastError?: string;
          wayBack?: { connected: boolean; error?: string };
        }[];
      };
      return s.channels?.find((c) => c.channel === 'telegram');
    };
    const until = async (check: (h: Awaited<ReturnType<typeof health>>) => boolean) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const h = await health();
        if (check(h)) return h;
        if (Date.now() > deadline) throw new Error(`telegram health stayed ${JSON.stringify(h)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    await until((h) => h?.wayBack?.connected === true);
    // The token is revoked: the poll in flight ends (server restart), every next one is a 401.
    const port = telegram.port;
    telegram.token = '123456:revoked';
    try {
      await telegram.close();
      await telegram.listen(port);
      const failing = await until((h) => /401/.test(h?.lastError ?? ''));
      expect(failing).toMatchObject({ state: 'failing', wayBack: { connected: false } });
      expect(failing?.wayBack?.error).toBe(failing?.lastError);
      expect(failing?.lastError).toMatch(/getUpdates.*HTTP 401 Unauthorized/);
      expect(failing?.lastError).not.toContain('revoked');
      const text = await daemon.cli(['status']);
      expect(text.stdout).toMatch(
        /telegram failing since .*401.*presses NOT coming back since .*401/,
      );
    } finally {
      telegram.token = BOT_TOKEN;
    }
    const ok = await until((h) => h?.wayBack?.connected === true);
    expect(ok?.state).not.toBe('failing');
  });

  it('`gatehouse chat setup telegram` checks the token, finds the chat from /start, saves the settings and sends a test message', async () => {
    const bad = await daemon.cli([
      'chat',
      'setup',
      'telegram',
      '--token',
      '1:wrong',
      '--api',
      telegram.url,
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/getMe failed: HTTP 401/);
    expect(bad.stderr).not.toContain('1:wrong');
    const before = telegram.messages.length;
    // A request waiting while set-up runs: its press, made while set-up polls, is the daemon's.
    const waiting = await waitingRequest('tg-setup', 'ship_it');
    await new Promise((r) => setTimeout(r, 300));
    telegram.maxConcurrentPolls = 0;
    const setup = daemon.cli([
      'chat',
      'setup',
      'telegram',
      '--token',
      BOT_TOKEN,
      '--api',
      telegram.url,
      '--wait',
      '20',
    ]);
    await telegram.until(() => telegram.calls.includes('getMe'));
    // Someone other than the person writes first: only a /start counts.
    telegram.say(STRANGER, 'approve everything please');
    await new Promise((r) => setTimeout(r, 300));
    const grace = { id: 4711, first_name: 'Grace', username: 'grace' };
    const during = telegram.press(grace, waiting.message, waiting.button('Approve'));
    await new Promise((r) => setTimeout(r, 300));
    telegram.say(grace, '/start');
    const r = await setup;
    expect(r.code, r.stderr).toBe(0);
    // One poll at a time throughout: the daemon's stopped while set-up read the updates.
    expect(telegram.maxConcurrentPolls).toBe(1);
    // The press was left for the daemon, which handled it once set-up made Grace the decider.
    expect((await waiting.answer).status).toBe('approved');
    expect(await answered(during)).toBe('Approved.');
    expect(telegram.deliveries.get(during)).toBe(1);
    expect(r.stdout).toContain('@grace may decide');
    const { settings } = await admin.call('settings.get', {});
    expect(settings).toMatchObject({
      notifications: {
        channels: { telegram: { chatId: '4711', allowedUserIds: ['4711'], enabled: true } },
      },
    });
    await telegram.until(() => telegram.messages.length > before);
    const test = telegram.messages.at(-1)!;
    expect(test.chat_id).toBe('4711');
    // Its button works: the person's press is answered, a stranger's is not allowed.
    const data = test.keyboard?.[0]?.[0]?.callback_data ?? '';
    expect(await answered(telegram.press(grace, test, data))).toMatch(/Buttons work/);
    expect(await answered(telegram.press(STRANGER, test, data))).toMatch(/not allowed/);
  });
});
