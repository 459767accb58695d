import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { ChatStage } from '../../support/chat-stage';
import type { TestDaemon } from '../../support/daemon';
import { DiscordServer, type PostedMessage } from '../../support/discord-server';

/**
 * Discord end to end, with the real daemon and a local Discord (REST and Gateway): requests
 * are posted with button components, presses come back as INTERACTION_CREATE over the
 * Gateway exactly as Discord sends them, and every refusal is checked to have decided nothing.
 */
const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.test.discord-bot-token';
const CHANNEL_ID = '1100000000000000001';
const ALLOWED = { id: '2200000000000000001', username: 'ada' };
const STRANGER = { id: '2200000000000000666', username: 'mallory' };

let discord: DiscordServer;
let stage: ChatStage;
let daemon: TestDaemon;
let admin: AdminClient;
const config = (key: string, value: string) => stage.config(key, value);
const audits = (type: string) => stage.audits(type);

/** Discord shows escaped markdown literally: the text as a person reads it. */
const shown = (text: string | undefined): string => (text ?? '').replace(/\\(.)/g, '$1');

beforeAll(async () => {
  discord = new DiscordServer(BOT_TOKEN, CHANNEL_ID);
  await discord.listen();
  stage = await ChatStage.start([
    ['notifications.channels.discord.apiBase', discord.apiBase],
    ['notifications.channels.discord.botToken', BOT_TOKEN],
    ['notifications.channels.discord.channelId', CHANNEL_ID],
    ['notifications.channels.discord.allowedUserIds', JSON.stringify([ALLOWED.id])],
    ['notifications.channels.discord.enabled', 'true'],
  ]);
  ({ daemon, admin } = stage);
  // The Gateway's URL comes from GET /gateway/bot; the session from IDENTIFY → READY.
  await discord.until(() => discord.count('identify') === 1 && discord.count('heartbeat') > 0);
});

afterAll(async () => {
  await stage?.stop();
  await discord?.close();
});

/** Files a request that blocks its agent, and waits for its Discord message. */
async function waitingRequest(agentName: string, action: string) {
  const { answer } = await stage.fileWaiting(agentName, action);
  let message: PostedMessage | undefined;
  await discord.until(() => {
    message = discord.messages.find((m) =>
      shown(m.embeds[0]?.title).startsWith(`${agentName} wants to ${action}`),
    );
    return message !== undefined;
  });
  const button = (label: string): string => {
    const found = message!.components.flatMap((r) => r.components).find((b) => b.label === label);
    if (!found) throw new Error(`no ${label} button`);
    return found.custom_id;
  };
  return { answer, message: message!, button };
}

async function answered(interactionId: string) {
  await discord.until(() => discord.answers.has(interactionId));
  return discord.answers.get(interactionId)!;
}

const ephemeral = (a: { type: number; data: Record<string, unknown> }): string => {
  expect(a.type).toBe(4);
  expect(a.data.flags).toBe(64);
  return String(a.data.content);
};

describe('Discord: post, press over the Gateway, decide, edit (outbound only)', () => {
  it('posts an embed with what, why and agent and Approve / Deny / session buttons; a press approves the waiting agent and updates the message', async () => {
    const { answer, message, button } = await waitingRequest('dc-bot', 'publish_package');
    expect(message.channel_id).toBe(CHANNEL_ID);
    expect(shown(message.embeds[0]?.description)).toContain('publish_package for the test');
    expect(shown(message.embeds[0]?.description)).toContain('Agent: dc-bot');
    for (const label of ['Approve', 'Deny', 'Approve for this session'])
      expect(button(label).length).toBeLessThanOrEqual(100);
    const [approve, deny] = [button('Approve'), button('Deny')];
    const press = discord.press(ALLOWED, message, approve);
    const result = await answer;
    expect(result.status).toBe('approved');
    const { request } = await admin.call('request.get', { requestId: result.requestId });
    expect(request.decidedVia).toBe('chat:discord');
    // Answered by updating the pressed message (type 7): who decided, no buttons.
    const a = await answered(press);
    expect(a.type).toBe(7);
    expect(message.components).toEqual([]);
    const decided = message.edits.at(-1)?.embeds[0]?.fields?.find((f) => f.name === 'Decided');
    expect(shown(decided?.value)).toMatch(
      /Approved by @ada \(2200000000000000001\) via chat:discord at \d{4}-/,
    );
    expect(await audits('chat.decided')).toContainEqual(
      expect.objectContaining({
        requestId: result.requestId,
        app: 'discord',
        user: '@ada (2200000000000000001)',
      }),
    );

    // The same button again, and the other button of the decided request: refused.
    const again = discord.press(ALLOWED, message, approve);
    expect(ephemeral(await answered(again))).toMatch(/already/i);
    const other = discord.press(ALLOWED, message, deny);
    expect(ephemeral(await answered(other))).toMatch(/already/i);
    const after = await admin.call('request.get', { requestId: result.requestId });
    expect(after.request.status).toBe('approved');
    expect(after.request.decidedVia).toBe('chat:discord');
  });

  it('a press by a user not on the allow-list decides nothing, is answered "not allowed" and audited; a decision from the CLI then edits the message', async () => {
    const { message, button } = await waitingRequest('dc-bot-2', 'send_email');
    const press = discord.press(STRANGER, message, button('Approve'));
    expect(ephemeral(await answered(press))).toMatch(/not allowed/);
    const req = (await admin.call('pending.list', {})).requests.find(
      (r) => r.action === 'send_email',
    );
    expect(req?.status).toBe('pending');
    expect(await audits('chat.refused')).toContainEqual(
      expect.objectContaining({
        app: 'discord',
        reason: 'not_allowed_user',
        user: '@mallory (2200000000000000666)',
      }),
    );
    expect((await daemon.cli(['deny', req!.requestId])).code).toBe(0);
    await discord.until(() => message.edits.length === 1);
    expect(message.components).toEqual([]);
    const decided = message.embeds[0]?.fields?.find((f) => f.name === 'Decided');
    expect(shown(decided?.value)).toMatch(/Denied by a person via cli/);
  });

  it('a request decided while its message was being posted gets its message edited to the decided form at once (no buttons left that decide nothing)', async () => {
    discord.holdPosts = true;
    let message: PostedMessage | undefined;
    try {
      const agent = await stage.agent({ agent: 'dc-early' });
      const answer = agent.request({
        action: 'flush_queue',
        description: 'flush_queue for the test',
        urgency: 'high',
        wait: true,
        timeoutMs: 60_000,
      });
      // Discord has the message; Gatehouse is still waiting for the answer to its POST.
      await discord.until(() => {
        message = discord.messages.find((m) =>
          shown(m.embeds[0]?.title).startsWith('dc-early wants to flush_queue'),
        );
        return message !== undefined;
      });
      const req = (await admin.call('pending.list', {})).requests.find(
        (r) => r.action === 'flush_queue',
      );
      expect((await daemon.cli(['approve', req!.requestId])).code).toBe(0);
      expect((await answer).status).toBe('approved');
      expect(message!.components).not.toEqual([]);
    } finally {
      discord.releasePosts();
    }
    await discord.until(() => message!.edits.length === 1);
    expect(message!.components).toEqual([]);
    const decided = message!.embeds[0]?.fields?.find((f) => f.name === 'Decided');
    expect(shown(decided?.value)).toMatch(/Approved by a person via cli/);
  });

  it("a button of one request pressed on another's message, and a forged custom_id, are refused", async () => {
    const first = await waitingRequest('dc-bot-3', 'rotate_keys');
    const second = await waitingRequest('dc-bot-4', 'drop_table');
    const swapped = discord.press(ALLOWED, second.message, first.button('Approve'));
    expect(ephemeral(await answered(swapped))).toMatch(/another request/);
    const data = first.button('Approve');
    const forged = `${data.slice(0, -2)}${data.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(ephemeral(await answered(discord.press(ALLOWED, first.message, forged)))).toMatch(
      /not valid/,
    );
    const pending = (await admin.call('pending.list', {})).requests.map((r) => r.action);
    expect(pending).toEqual(expect.arrayContaining(['rotate_keys', 'drop_table']));
    expect(await audits('chat.refused')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ app: 'discord', reason: 'other_request' }),
        expect.objectContaining({ app: 'discord', reason: 'bad_form' }),
      ]),
    );
    discord.press(ALLOWED, first.message, first.button('Approve'));
    discord.press(ALLOWED, second.message, second.button('Deny'));
    expect((await first.answer).status).toBe('approved');
    expect((await second.answer).status).toBe('denied');
  });

  it('a dropped Gateway resumes (RESUME, not IDENTIFY) and a press made meanwhile is handled once', async () => {
    const { answer, message, button } = await waitingRequest('dc-bot-5', 'push_main');
    const identifies = discord.count('identify');
    const disconnects = discord.count('disconnect');
    discord.drop();
    await discord.until(() => discord.count('disconnect') > disconnects);
    const press = discord.press(ALLOWED, message, button('Approve'));
    const result = await answer;
    expect(result.status).toBe('approved');
    expect((await answered(press)).type).toBe(7);
    expect(discord.count('resume')).toBeGreaterThan(0);
    expect(discord.count('identify')).toBe(identifies);
    // Delivered once (replayed by the resume), answered once, decided once.
    await new Promise((r) => setTimeout(r, 300));
    expect(discord.deliveries.get(press)).toBe(1);
    expect(discord.callbacks.get(press)).toBe(1);
    const decided = (await audits('chat.decided')).filter((a) => a.requestId === result.requestId);
    expect(decided).toHaveLength(1);
  });

  it('a press decided late (the daemon paused past 1.5 s) is acknowledged at once (type 6, deferred); the message still ends decided without buttons and the presser is told in an ephemeral follow-up', async () => {
    const { answer, message, button } = await waitingRequest('dc-slow', 'deploy_prod');
    const daemonProcess = daemon.proc!;
    // Paused before the press is sent: the daemon reads it 2 s after Discord created it.
    daemonProcess.kill('SIGSTOP');
    let press: string;
    try {
      press = discord.press(ALLOWED, message, button('Approve'));
      await new Promise((r) => setTimeout(r, 2_000));
    } finally {
      daemonProcess.kill('SIGCONT');
    }
    const result = await answer;
    expect(result.status).toBe('approved');
    expect((await answered(press)).type).toBe(6);
    await discord.until(() => message.components.length === 0 && discord.followUps.has(press));
    const decided = message.embeds[0]?.fields?.find((f) => f.name === 'Decided');
    expect(shown(decided?.value)).toMatch(
      /Approved by @ada \(2200000000000000001\) via chat:discord at \d{4}-/,
    );
    expect(discord.followUps.get(press)).toEqual([{ content: 'Approved.', flags: 64 }]);
    expect(discord.callbacks.get(press)).toBe(1);
    const { request } = await admin.call('request.get', { requestId: result.requestId });
    expect(request.decidedVia).toBe('chat:discord');
  });

  it('a missed heartbeat ACK (a zombie connection) reconnects and resumes; presses still arrive', async () => {
    const connects = discord.count('connect');
    const resumes = discord.count('resume');
    discord.silence = true;
    await discord.until(() => discord.count('connect') > connects, 15_000);
    discord.silence = false;
    await discord.until(() => discord.count('resume') > resumes);
    const { answer, message, button } = await waitingRequest('dc-bot-6', 'merge_pr');
    discord.press(ALLOWED, message, button('Deny'));
    expect((await answer).status).toBe('denied');
  });

  it('an ended session (INVALID_SESSION on RESUME) identifies afresh', async () => {
    const identifies = discord.count('identify');
    discord.forgetSessions();
    discord.drop();
    await discord.until(() => discord.count('identify') > identifies, 15_000);
    const { answer, message, button } = await waitingRequest('dc-bot-7', 'tag_release');
    discord.press(ALLOWED, message, button('Approve'));
    expect((await answer).status).toBe('approved');
  });

  it('what an agent writes is shown literally: a masked link or a mention in its description is escaped, and mentions ping nobody', async () => {
    const agent = await stage.agent({ agent: 'dc-md' });
    void agent
      .request({
        action: 'fetch_url',
        description: '[Approve here](https://evil.example/steal) @everyone **now**',
        urgency: 'high',
        wait: true,
        timeoutMs: 60_000,
      })
      .catch(() => undefined);
    let m: PostedMessage | undefined;
    await discord.until(() => {
      m = discord.messages.find((x) => shown(x.embeds[0]?.description).includes('evil.example'));
      return m !== undefined;
    });
    const description = m!.embeds[0]!.description!;
    expect(description).not.toContain('[Approve here](https');
    expect(description).toContain('\\[Approve here\\]\\(https\\:');
    expect(description).toContain('\\@everyone \\*\\*now\\*\\*');
    expect(discord.bodies.at(-1)?.allowed_mentions).toEqual({ parse: [] });
  });

  it('the Gateway shows in the channel health of `gatehouse status`', async () => {
    const r = await daemon.cli(['status', '--json']);
    const s = JSON.parse(r.stdout) as {
      channels?: { channel: string; state: string; wayBack?: { connected: boolean } }[];
    };
    const discordHealth = s.channels?.find((c) => c.channel === 'discord');
    expect(discordHealth?.wayBack).toMatchObject({ connected: true });
    expect(discordHealth?.state).not.toBe('failing');
    expect((await daemon.cli(['status'])).stdout).toMatch(/discord \w+.*presses come back/);
  });

  it('`gatehouse chat setup discord` checks the token and the channel, saves the settings and sends a test message whose button answers', async () => {
    const setup = (...args: string[]) =>
      daemon.cli(['chat', 'setup', 'discord', '--api', discord.apiBase, ...args]);
    const bad = await setup(
      '--token',
      'wrong-token',
      '--channel',
      CHANNEL_ID,
      '--allow',
      ALLOWED.id,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/users\/@me failed: HTTP 401/);
    expect(bad.stderr).not.toContain('wrong-token');
    const elsewhere = await setup(
      '--token',
      BOT_TOKEN,
      '--channel',
      '1100000000000000999',
      '--allow',
      ALLOWED.id,
    );
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.stderr).toMatch(
      /cannot see channel .*oauth2\/authorize\?client_id=\d+&scope=bot&permissions=19456/,
    );
    const grace = { id: '2200000000000000002', username: 'grace' };
    const before = discord.messages.length;
    const r = await setup(
      '--token',
      BOT_TOKEN,
      '--channel',
      CHANNEL_ID,
      '--allow',
      grace.id,
      ALLOWED.id,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('posts to #approvals');
    const { settings } = await admin.call('settings.get', {});
    expect(settings).toMatchObject({
      notifications: {
        channels: {
          discord: { channelId: CHANNEL_ID, allowedUserIds: [grace.id, ALLOWED.id], enabled: true },
        },
      },
    });
    await discord.until(() => discord.messages.length > before);
    const test = discord.messages.at(-1)!;
    const id = test.components[0]?.components[0]?.custom_id ?? '';
    expect(ephemeral(await answered(discord.press(grace, test, id)))).toMatch(/Buttons work/);
    expect(ephemeral(await answered(discord.press(STRANGER, test, id)))).toMatch(/not allowed/);
  });

  it('posts only what is urgent enough: below minUrgency nothing is posted, and quiet hours hold a normal request', async () => {
    await config('notifications.channels.discord.minUrgency', 'high');
    try {
      const agent = await stage.agent({ agent: 'dc-low' });
      void agent
        .request({
          action: 'tidy_cache',
          description: 'tidy',
          urgency: 'normal',
          wait: true,
          timeoutMs: 60_000,
        })
        .catch(() => undefined);
      const loud = await waitingRequest('dc-loud', 'wipe_volume');
      expect(loud.message).toBeDefined();
      await new Promise((r) => setTimeout(r, 500));
      expect(discord.messages.some((m) => shown(m.embeds[0]?.title).includes('tidy_cache'))).toBe(
        false,
      );
    } finally {
      await config('notifications.channels.discord.minUrgency', 'normal');
    }
    await stage.expectQuietHoursHold(
      'rotate_logs',
      (action) => discord.messages.some((m) => shown(m.embeds[0]?.title).includes(action)),
      (ready) => discord.until(ready),
    );
  });
});
