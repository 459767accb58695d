import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';
import { startNtfyServer } from '../../support/ntfy-server';
import { errorCode, rawSession } from '../../support/raw-socket';

let ntfy: Awaited<ReturnType<typeof startNtfyServer>>;
let daemon: TestDaemon;

beforeAll(async () => {
  ntfy = await startNtfyServer();
  daemon = await TestDaemon.start({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' });
});
afterAll(async () => {
  await daemon?.stop();
  await ntfy?.close();
});

describe('gatehouse ntfy setup', () => {
  it('makes random topics, saves them, prints the subscribe URL and its QR code, sends a test, and the daemon follows the reply topic', async () => {
    const r = await daemon.cli(['ntfy', 'setup', '--server', ntfy.url]);
    expect(r.code, r.stderr).toBe(0);
    const url = new RegExp(
      `  (${ntfy.url.replace(/[.]/g, '\\.')}/(gatehouse-[A-Za-z0-9]{20}))\\n`,
    ).exec(r.stdout);
    expect(url, r.stdout).not.toBeNull();
    const topic = url![2]!;
    // A QR code in block characters (at least 21 rows: the smallest QR version).
    expect(r.stdout.split('\n').filter((l) => /^[█▀▄ ]{21,}$/.test(l)).length).toBeGreaterThan(10);

    const get = async (key: string): Promise<string> =>
      (await daemon.cli(['config', 'get', `notifications.channels.ntfy.${key}`])).stdout.trim();
    expect(await get('topic')).toContain(topic);
    expect(await get('enabled')).toContain('true');
    const reply = /gatehouse-reply-[A-Za-z0-9]{20}/.exec(await get('replyTopic'))?.[0];
    expect(reply).toBeDefined();

    expect(ntfy.messages.filter((m) => m.topic === topic).map((m) => m.title)).toEqual([
      'Gatehouse is connected',
    ]);
    // The running daemon picked up the settings and follows the reply topic.
    await ntfy.until(() => ntfy.subscriberCount(reply!) === 1);

    // Run again: new topics, the old ones are dropped.
    const again = await daemon.cli(['ntfy', 'setup', '--server', ntfy.url, '--no-test']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain(topic);
    await ntfy.until(() => ntfy.subscriberCount(reply!) === 0);
  });

  it('with a token: the test goes through the daemon with it, a wrong token is reported, and the audit trail never holds it', async () => {
    const guarded = await startNtfyServer({ token: 'tk_right-token' });
    try {
      const ok = await daemon.cli([
        'ntfy',
        'setup',
        '--server',
        `${guarded.url}/`,
        '--token',
        'tk_right-token',
        '--no-reply-topic',
      ]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('A test notification was sent.');
      expect(ok.stdout).toContain('signed decision link');
      const topic = new RegExp(
        `${guarded.url.replace(/[.]/g, '\\.')}/(gatehouse-[A-Za-z0-9]{20})\n`,
      ).exec(ok.stdout)?.[1];
      expect(topic, ok.stdout).toBeDefined();
      expect(guarded.messages.filter((m) => m.topic === topic).map((m) => m.title)).toEqual([
        'Gatehouse is connected',
      ]);

      const wrong = await daemon.cli([
        'ntfy',
        'setup',
        '--server',
        guarded.url,
        '--token',
        'tk_wrong-token',
      ]);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toContain(
        'the test notification was not delivered: ntfy answered HTTP 403',
      );

      const admin = await daemon.admin();
      try {
        // The failed test shows in the channel's health, as a failed delivery would.
        const { channels } = await admin.call('status', {});
        expect(channels?.find((c) => c.channel === 'ntfy')).toMatchObject({
          state: 'failing',
          lastError: 'ntfy answered HTTP 403',
        });
        const { events } = await admin.call('audit.query', {
          type: 'settings.changed',
          limit: 100,
        });
        const audited = JSON.stringify(events);
        expect(audited).toContain('notifications.channels.ntfy');
        expect(audited).not.toContain('tk_right-token');
        expect(audited).not.toContain('tk_wrong-token');
      } finally {
        admin.close();
      }
    } finally {
      await guarded.close();
    }
  });

  it('refuses both methods to the agent role: an agent cannot point notifications at its own topic or spam the person', async () => {
    const admin = await daemon.admin();
    const before = await admin.call('settings.get', { key: 'notifications.channels.ntfy' });
    const sent = ntfy.messages.length;
    const agent = rawSession(daemon.socketPath);
    try {
      await agent.connected;
      expect((await agent.call('hello', { agent: 'sneaky-bot' }))?.result).toBeTruthy();
      const setup = await agent.call('ntfy.setup', { server: ntfy.url });
      expect(errorCode(setup)).toBe(-32601);
      expect(JSON.stringify(setup)).toContain('not allowed for the agent role');
      expect(errorCode(await agent.call('notifications.test', { channel: 'ntfy' }))).toBe(-32601);
      // Nothing changed, nothing was sent.
      const after = await admin.call('settings.get', { key: 'notifications.channels.ntfy' });
      expect(after.value).toEqual(before.value);
      expect(ntfy.messages.length).toBe(sent);
    } finally {
      agent.socket.destroy();
      admin.close();
    }
  });
});
