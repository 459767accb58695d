import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../support/daemon';
import { startNtfyServer } from '../support/ntfy-server';

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
});
