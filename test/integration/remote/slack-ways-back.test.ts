import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { Urgency } from '../../../shared/domain';
import { ChatStage } from '../../support/chat-stage';
import type { TestDaemon } from '../../support/daemon';
import { SlackServer, type PostedSlackMessage } from '../../support/slack-server';

/**
 * Slack end to end, with the real daemon and a local Web API + Socket Mode server: requests
 * are posted with Block Kit buttons, presses come back over the WebSocket the daemon opened,
 * exactly as Slack delivers `block_actions` envelopes, and every refusal is checked to have
 * decided nothing.
 */
const BOT_TOKEN = 'xoxb-1-test-bot-token';
const APP_TOKEN = 'xapp-1-test-app-token';
const CHANNEL = 'C0GATEHSE';
const ALLOWED = { id: 'U0ADA', username: 'ada' };
const STRANGER = { id: 'U0MALLORY', username: 'mallory' };

let slack: SlackServer;
let stage: ChatStage;
let daemon: TestDaemon;
let admin: AdminClient;
const audits = (type: string) => stage.audits(type);

beforeAll(async () => {
  slack = new SlackServer(BOT_TOKEN, APP_TOKEN);
  await slack.listen();
  stage = await ChatStage.start([
    ['notifications.channels.slack.apiBase', slack.apiBase],
    ['notifications.channels.slack.botToken', BOT_TOKEN],
    ['notifications.channels.slack.appToken', APP_TOKEN],
    ['notifications.channels.slack.channel', CHANNEL],
    ['notifications.channels.slack.allowedUserIds', JSON.stringify([ALLOWED.id])],
    ['notifications.channels.slack.enabled', 'true'],
  ]);
  ({ daemon, admin } = stage);
  await slack.until(() => slack.connected);
});

afterAll(async () => {
  await stage?.stop();
  await slack?.close();
});

/** Files a request that blocks its agent, and waits for its Slack message. */
async function waitingRequest(agentName: string, action: string, urgency: Urgency = 'high') {
  const { answer } = await stage.fileWaiting(agentName, action, urgency);
  let message: PostedSlackMessage | undefined;
  await slack.until(() => {
    message = slack.messages.find((m) => m.text.startsWith(`${agentName} wants to ${action}`));
    return message !== undefined;
  });
  // The buttons as posted (an edit replaces the blocks; a replay presses the old button).
  const posted = message!.blocks;
  const button = (label: string) => {
    const found = posted
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? [])
      .find((e) => typeof e.text === 'object' && e.text.text === label);
    if (!found?.action_id || found.value === undefined) throw new Error(`no ${label} button`);
    return { action_id: found.action_id, value: found.value, text: label };
  };
  return { answer, message: message!, button };
}

/** The ephemeral answers `user` got, after at least `count` of them arrived. */
async function answersTo(user: string, count: number): Promise<string[]> {
  await slack.until(() => slack.ephemerals.filter((e) => e.user === user).length >= count);
  return slack.ephemerals.filter((e) => e.user === user).map((e) => e.text);
}

const hasActions = (m: PostedSlackMessage) => m.blocks.some((b) => b.type === 'actions');
const lastContext = (m: PostedSlackMessage) =>
  m.blocks.filter((b) => b.type === 'context').at(-1)?.elements?.[0]?.text;

describe('Slack: post, press, decide, edit (outbound only, Socket Mode)', () => {
  it('posts what, why, agent and risk in Block Kit, agent text never markup, with Approve / Deny / session buttons', async () => {
    const agent = await stage.agent({ agent: 'sl-show' });
    const answer = agent.request({
      action: 'deploy',
      description: 'deploy <!channel> <@U0ADA> & <https://evil.example|click>',
      urgency: 'high',
      wait: true,
      timeoutMs: 60_000,
    });
    await slack.until(() => slack.messages.some((m) => m.text.startsWith('sl-show wants to')));
    const message = slack.messages.find((m) => m.text.startsWith('sl-show wants to'))!;
    expect(message.channel).toBe(CHANNEL);
    // The fallback text is escaped: no @channel, no mention, no link.
    expect(message.text).not.toMatch(/<!channel>|<@U0ADA>|<https:/);
    expect(message.text).toContain('&lt;!channel&gt;');
    // Every block with the agent's words is plain_text (Slack shows it as it is).
    const texts = message.blocks.flatMap((b) => [...(b.text ? [b.text] : []), ...(b.fields ?? [])]);
    expect(texts.every((t) => t.type === 'plain_text')).toBe(true);
    expect(JSON.stringify(message.blocks)).toContain('Agent: sl-show');
    const buttons = message.blocks.find((b) => b.type === 'actions')?.elements ?? [];
    expect(buttons.map((b) => typeof b.text === 'object' && b.text.text)).toEqual([
      'Approve',
      'Deny',
      'Approve for this session',
    ]);
    for (const b of buttons) expect(b.value).toMatch(/^[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}$/);
    const deny = buttons[1]!;
    slack.press(ALLOWED, message, { action_id: deny.action_id!, value: deny.value! });
    expect((await answer).status).toBe('denied');
  });

  it('a press by an allowed user approves the waiting agent; the message then says who, how and when, without buttons; a replay is refused', async () => {
    const { answer, message, button } = await waitingRequest('sl-bot', 'publish_package');
    const before = slack.ephemerals.filter((e) => e.user === ALLOWED.id).length;
    const envelope = slack.press(ALLOWED, message, button('Approve'));
    const result = await answer;
    expect(result.status).toBe('approved');
    expect((await answersTo(ALLOWED.id, before + 1)).at(-1)).toBe('Approved.');
    await slack.until(() => slack.acks.get(envelope) === 1);
    const { request } = await admin.call('request.get', { requestId: result.requestId });
    expect(request.decidedVia).toBe('chat:slack');
    await slack.until(() => message.edits.length === 1);
    expect(hasActions(message)).toBe(false);
    expect(lastContext(message)).toMatch(/Approved by @ada \(U0ADA\) via chat:slack at \d{4}-/);
    expect(await audits('chat.decided')).toContainEqual(
      expect.objectContaining({ requestId: result.requestId, app: 'slack', user: '@ada (U0ADA)' }),
    );

    // The Deny button of the same message pressed later (a second click, or a replayed
    // payload): the request stays approved.
    slack.press(ALLOWED, message, button('Deny'));
    expect((await answersTo(ALLOWED.id, before + 2)).at(-1)).toMatch(/already/i);
    // The very same Approve pressed again: its token is spent.
    slack.press(ALLOWED, message, button('Approve'));
    expect((await answersTo(ALLOWED.id, before + 3)).at(-1)).toMatch(/already/i);
    const after = await admin.call('request.get', { requestId: result.requestId });
    expect(after.request.status).toBe('approved');
  });

  it('a press by a user not on the allow-list decides nothing, is answered "not allowed" and audited; a CLI decision then edits the message', async () => {
    const { message, button } = await waitingRequest('sl-bot-2', 'send_email');
    slack.press(STRANGER, message, button('Approve'));
    expect(await answersTo(STRANGER.id, 1)).toEqual([expect.stringMatching(/not allowed/)]);
    const pending = await admin.call('pending.list', {});
    const req = pending.requests.find((r) => r.action === 'send_email');
    expect(req?.status).toBe('pending');
    expect(await audits('chat.refused')).toContainEqual(
      expect.objectContaining({
        app: 'slack',
        reason: 'not_allowed_user',
        user: '@mallory (U0MALLORY)',
      }),
    );
    expect((await daemon.cli(['deny', req!.requestId])).code).toBe(0);
    await slack.until(() => message.edits.length === 1);
    expect(hasActions(message)).toBe(false);
    expect(lastContext(message)).toMatch(/Denied by a person via cli/);
  });

  it('a button of one request pressed on the message of another, and a forged value, are refused', async () => {
    const first = await waitingRequest('sl-bot-3', 'rotate_keys');
    const second = await waitingRequest('sl-bot-4', 'drop_table');
    const before = slack.ephemerals.filter((e) => e.user === ALLOWED.id).length;
    slack.press(ALLOWED, second.message, first.button('Approve'));
    expect((await answersTo(ALLOWED.id, before + 1)).at(-1)).toMatch(/another request/);
    const real = first.button('Approve');
    const forged = `${real.value.slice(0, -2)}${real.value.endsWith('AA') ? 'BB' : 'AA'}`;
    slack.press(ALLOWED, first.message, { ...real, value: forged });
    expect((await answersTo(ALLOWED.id, before + 2)).at(-1)).toMatch(/not valid/);
    const pending = (await admin.call('pending.list', {})).requests.map((r) => r.action);
    expect(pending).toEqual(expect.arrayContaining(['rotate_keys', 'drop_table']));
    expect(await audits('chat.refused')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ app: 'slack', reason: 'other_request' }),
        expect.objectContaining({ app: 'slack', reason: 'bad_form' }),
      ]),
    );
    slack.press(ALLOWED, first.message, first.button('Approve'));
    slack.press(ALLOWED, second.message, second.button('Deny'));
    expect((await first.answer).status).toBe('approved');
    expect((await second.answer).status).toBe('denied');
  });

  it('an envelope Slack delivers again (retry_attempt) is handled once', async () => {
    const { answer, message, button } = await waitingRequest('sl-bot-5', 'tag_release');
    const before = slack.ephemerals.filter((e) => e.user === ALLOWED.id).length;
    const envelope = slack.press(ALLOWED, message, button('Approve'));
    slack.redeliver(envelope);
    slack.redeliver(envelope);
    const result = await answer;
    expect(result.status).toBe('approved');
    // Every delivery is acknowledged; only the first decides and is answered.
    await slack.until(() => slack.acks.get(envelope) === 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(slack.ephemerals.filter((e) => e.user === ALLOWED.id).length).toBe(before + 1);
    const decided = (await audits('chat.decided')).filter((a) => a.requestId === result.requestId);
    expect(decided).toHaveLength(1);
  });

  it('the connection dropped mid-press reconnects, and the press (delivered again) is handled once', async () => {
    const { answer, message, button } = await waitingRequest('sl-bot-6', 'push_main');
    const connections = slack.connections;
    const before = slack.ephemerals.filter((e) => e.user === ALLOWED.id).length;
    const envelope = slack.press(ALLOWED, message, button('Approve'), { thenDrop: true });
    const result = await answer;
    expect(result.status).toBe('approved');
    // Unacknowledged on the dropped connection: Slack sends it again on the next one.
    await slack.until(() => slack.connections > connections && slack.connected);
    await slack.until(() => (slack.acks.get(envelope) ?? 0) >= 1);
    expect(slack.envelopes.get(envelope)?.retry_attempt).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(slack.ephemerals.filter((e) => e.user === ALLOWED.id).length).toBe(before + 1);
    const decided = (await audits('chat.decided')).filter((a) => a.requestId === result.requestId);
    expect(decided).toHaveLength(1);
  });

  it('a press made while the server is down is delivered after the reconnect and decides once; a `disconnect` refresh loses nothing', async () => {
    const { answer, message, button } = await waitingRequest('sl-bot-7', 'publish_docs');
    const wayBack = async () =>
      (await admin.call('status', {})).channels?.find((c) => c.channel === 'slack')?.wayBack;
    expect(await wayBack()).toMatchObject({ connected: true });
    const port = slack.port;
    await slack.close();
    const envelope = slack.press(ALLOWED, message, button('Approve'));
    // The channel's health says the presses are not coming back, and why.
    await expect.poll(wayBack, { timeout: 10_000 }).toMatchObject({ connected: false });
    const status = await daemon.cli(['status']);
    expect(status.stdout).toMatch(/slack \w+.*presses NOT coming back since .*: \S/);
    await slack.listen(port);
    const result = await answer;
    expect(result.status).toBe('approved');
    await slack.until(() => slack.acks.get(envelope) === 1);
    await expect.poll(wayBack, { timeout: 10_000 }).toMatchObject({ connected: true });
    expect((await daemon.cli(['status'])).stdout).toMatch(/slack \w+.*presses come back/);

    // Slack recycles the connection: the daemon opens a fresh one at once and keeps working.
    const next = await waitingRequest('sl-bot-8', 'merge_pr');
    const connections = slack.connections;
    slack.disconnect('refresh_requested');
    await slack.until(() => slack.connections > connections && slack.connected);
    slack.press(ALLOWED, next.message, next.button('Deny'));
    expect((await next.answer).status).toBe('denied');
  });

  it("carries the request's picture (the file an edit writes, +added −removed), in the post or added by an edit when computed after it; the decision's edit keeps it", async () => {
    const project = mkdtempSync(join(tmpdir(), 'gh-slack-picture-'));
    try {
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'src', 'pay.ts'), 'export const pay = (c: number) => c;\n');
      const agent = await stage.agent({ agent: 'sl-picture', project });
      const answer = agent.gate({
        client: 'claude-code',
        event: 'PreToolUse',
        tool: 'Edit',
        input: {
          file_path: 'src/pay.ts',
          old_string: 'export const pay = (c: number) => c;',
          new_string: 'export const pay = (c: number) =>\n  c * 2;',
        },
        toolUseId: 'tu-slack-picture',
        cwd: project,
        wait: true,
        timeoutMs: 60_000,
      });
      let message: PostedSlackMessage | undefined;
      await slack.until(() => {
        message = slack.messages.find((m) => m.text.includes('sl-picture'));
        return message !== undefined;
      });
      const picture = () =>
        message!.blocks.find((b) => b.block_id === 'gatehouse-picture')?.text?.text ?? '';
      await slack.until(() => picture() !== '');
      expect(picture()).toContain(`${join(project, 'src', 'pay.ts')}  +2 −1`);
      // The buttons are still after it, and still decide.
      const actions = message!.blocks.at(-1)!;
      expect(actions.type).toBe('actions');
      const deny = actions.elements!.find((e) => e.action_id === 'gatehouse-deny')!;
      slack.press(ALLOWED, message!, { action_id: deny.action_id!, value: deny.value! });
      expect((await answer).outcome).toBe('deny');
      await slack.until(() => !hasActions(message!));
      expect(picture()).toContain('+2 −1');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('quiet hours hold a normal request until they end; a high one still gets through', async () => {
    await stage.expectQuietHoursHold(
      'tidy_logs',
      (action) => slack.messages.some((m) => m.text.includes(action)),
      (ready) => slack.until(ready),
      () => waitingRequest('sl-loud', 'wipe_disk', 'high'),
    );
  });

  it('`gatehouse chat setup slack` checks both tokens, saves the settings and sends a test message whose button works', async () => {
    const bad = await daemon.cli([
      'chat',
      'setup',
      'slack',
      '--token',
      'xoxb-wrong',
      '--app-token',
      APP_TOKEN,
      '--channel',
      'C0OTHER',
      '--allow',
      'U0GRACE',
      '--api',
      slack.apiBase,
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/auth.test failed: HTTP 200 invalid_auth/);
    expect(bad.stderr).not.toContain('xoxb-wrong');
    const badApp = await daemon.cli([
      'chat',
      'setup',
      'slack',
      '--token',
      BOT_TOKEN,
      '--app-token',
      'xapp-wrong',
      '--channel',
      'C0OTHER',
      '--allow',
      'U0GRACE',
      '--api',
      slack.apiBase,
    ]);
    expect(badApp.stderr).toMatch(/apps.connections.open failed: HTTP 200 invalid_auth/);
    const before = slack.messages.length;
    const r = await daemon.cli([
      'chat',
      'setup',
      'slack',
      '--token',
      BOT_TOKEN,
      '--app-token',
      APP_TOKEN,
      '--channel',
      'C0OTHER',
      '--allow',
      'U0GRACE,U0ADA',
      '--api',
      slack.apiBase,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('U0GRACE, U0ADA may decide');
    const { settings } = await admin.call('settings.get', {});
    expect(settings).toMatchObject({
      notifications: {
        channels: {
          slack: { channel: 'C0OTHER', allowedUserIds: ['U0GRACE', 'U0ADA'], enabled: true },
        },
      },
    });
    await slack.until(() => slack.messages.length > before);
    const test = slack.messages.at(-1)!;
    expect(test.channel).toBe('C0OTHER');
    const b = test.blocks.find((x) => x.type === 'actions')!.elements![0]!;
    const grace = { id: 'U0GRACE', username: 'grace' };
    slack.press(grace, test, { action_id: b.action_id!, value: b.value! });
    expect(await answersTo(grace.id, 1)).toEqual([expect.stringMatching(/Buttons work/)]);
    slack.press(STRANGER, test, { action_id: b.action_id!, value: b.value! });
    expect((await answersTo(STRANGER.id, 2)).at(-1)).toMatch(/not allowed/);
  });
});
