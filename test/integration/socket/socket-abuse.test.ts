/**
 * Attacks that let one client exhaust the daemon, and smaller holes, over the real socket with
 * the real daemon: each attack must now fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { TestDaemon } from '../../support/daemon';
import { errorCode, rawSession, rssOf } from '../../support/raw-socket';

const hello = (agent: string, extra: object = {}) =>
  `{"jsonrpc":"2.0","id":1,"method":"hello","params":${JSON.stringify({ agent, ...extra })}}`;

describe('socket abuse (real daemon, short timeouts)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  beforeAll(async () => {
    d = await TestDaemon.start(
      {
        GATEHOUSE_HELLO_TIMEOUT_MS: '400',
        GATEHOUSE_LINE_TIMEOUT_MS: '400',
        GATEHOUSE_MAX_BUFFERED_BYTES: String(8 * 1024 * 1024),
      },
      ['--no-dashboard'],
    );
    admin = await d.admin();
  });
  afterAll(async () => {
    admin?.close();
    await d.stop();
  });

  it('await and cancel work only from the session that filed the request', async () => {
    const owner = await d.agent({ agent: 'same-name', sessionKey: 'one' });
    const other = await d.agent({ agent: 'same-name', sessionKey: 'two' });
    const filed = await owner.request({ action: 'git_push', description: 'push', wait: false });
    expect(filed.status).toBe('queued');
    await expect(other.cancel(filed.requestId)).rejects.toMatchObject({ code: -32002 });
    await expect(other.await({ requestId: filed.requestId, timeoutMs: 0 })).rejects.toMatchObject({
      code: -32002,
    });
    // The same session, resumed on another connection (a one-shot hook), may.
    const resumed = await d.agent({ agent: 'same-name', sessionKey: 'one' });
    expect((await resumed.await({ requestId: filed.requestId, timeoutMs: 0 })).status).toBe(
      'pending',
    );
    expect(await resumed.cancel(filed.requestId)).toEqual({ status: 'cancelled' });
    for (const c of [owner, other, resumed]) c.close();
  });

  it('closes a connection after 5 failed auths, audits each, and slows failures globally', async () => {
    const s = rawSession(d.socketPath);
    await s.connected;
    for (let i = 0; i < 6; i++)
      s.send(`{"jsonrpc":"2.0","id":${i + 1},"method":"auth","params":{"token":"guess-${i}"}}`);
    await s.waitClosed();
    expect(s.messages.map(errorCode)).toEqual([-32001, -32001, -32001, -32001, -32001]);
    const { events } = await admin.call('audit.query', { type: 'auth.failed', limit: 100 });
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(events[0]!.data).toMatchObject({ reason: 'wrong_token' });
    // The global bucket (burst 10) drains: later attempts are not even compared.
    const codes: (number | undefined)[] = [];
    for (let c = 0; c < 3; c++) {
      const t = rawSession(d.socketPath);
      await t.connected;
      for (let i = 0; i < 5; i++)
        t.send(`{"jsonrpc":"2.0","id":${i + 1},"method":"auth","params":{"token":"x${i}"}}`);
      await t.waitClosed();
      codes.push(...t.messages.map(errorCode));
    }
    expect(codes).toContain(-32004);
  });

  it('closes a connection that sends no hello in time; an idle one after hello stays', async () => {
    const idle = rawSession(d.socketPath);
    idle.send(hello('idle'));
    expect((await idle.next(1))?.result).toBeTruthy();
    const silent = rawSession(d.socketPath);
    await silent.waitClosed();
    expect(errorCode(silent.messages[0])).toBe(-32010);
    // Two more hello deadlines pass (measured by connections closing, not by sleeping).
    const later = rawSession(d.socketPath);
    await later.waitClosed();
    expect(idle.closed).toBe(false);
    expect((await idle.call('classify', { action: 'read_file' }))?.result).toMatchObject({
      tier: 'auto',
    });
    idle.socket.destroy();
  });

  it('closes a connection that holds an unfinished line', async () => {
    const s = rawSession(d.socketPath);
    s.send(hello('slow'));
    await s.next(1);
    s.socket.write('{"jsonrpc":"2.0","id":2,"method":"classify","params":{"action":"rea');
    await s.waitClosed();
    expect(errorCode(s.messages[1])).toBe(-32600);
  });

  it('caps unfinished lines held for all connections; others are still served', async () => {
    // Its own daemon, whose lines may stay unfinished long: with this block's 400 ms, a loaded
    // machine writing 20 × 900 KiB closed the first holders for their timeout before the cap
    // was reached, and fewer than 10 were ever refused for it.
    const capped = await TestDaemon.start(
      {
        GATEHOUSE_LINE_TIMEOUT_MS: '60000',
        GATEHOUSE_MAX_BUFFERED_BYTES: String(8 * 1024 * 1024),
      },
      ['--no-dashboard'],
    );
    try {
      const pid = capped.proc!.pid!;
      const before = await rssOf(pid);
      const holders = Array.from({ length: 20 }, () => rawSession(capped.socketPath));
      await Promise.all(holders.map((h) => h.connected));
      for (const h of holders) {
        h.send(hello('holder'));
        h.socket.write(
          `{"jsonrpc":"2.0","id":2,"method":"log","params":{"x":"${'a'.repeat(900 * 1024)}`,
        );
      }
      // The cap is 8 MiB: of 20 × 900 KiB at least 10 are refused with -32004 and closed.
      for (;;) {
        const refused = holders.filter((h) => h.messages.some((m) => errorCode(m) === -32004));
        if (refused.length >= 10) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const agent = await capped.agent({ agent: 'bystander' });
      expect((await agent.classify({ action: 'read_file' })).tier).toBe('auto');
      expect((await rssOf(pid)) - before).toBeLessThan(100 * 1024 * 1024);
      agent.close();
      for (const h of holders) h.socket.destroy();
    } finally {
      await capped.stop();
    }
  });

  it('holds back clients that pipeline without reading; RSS stays bounded, others are served', async () => {
    const pid = d.proc!.pid!;
    const before = await rssOf(pid);
    const line = '{"jsonrpc":"2.0","id":7,"method":"classify","params":{"action":"read_file"}}\n';
    const chunk = line.repeat(1000);
    const floods = Array.from({ length: 12 }, () => rawSession(d.socketPath));
    let blocked = 0;
    for (const f of floods) {
      f.send(hello('flood'));
      f.socket.pause(); // never reads a reply
      // Writes until the daemon stops reading us and the kernel buffers fill.
      void (async () => {
        while (!f.closed) {
          if (!f.socket.write(chunk)) {
            const drained = await Promise.race([
              new Promise<boolean>((r) => f.socket.once('drain', () => r(true))),
              new Promise<boolean>((r) => setTimeout(() => r(false), 3000)),
            ]);
            if (!drained) {
              blocked++;
              return;
            }
          }
        }
      })();
    }
    const agent = await d.agent({ agent: 'well-behaved' });
    let peak = before;
    while (blocked < floods.length) {
      expect((await agent.classify({ action: 'git_status' })).tier).toBe('auto');
      peak = Math.max(peak, await rssOf(pid));
    }
    peak = Math.max(peak, await rssOf(pid));
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
    agent.close();
    for (const f of floods) f.socket.destroy();
  }, 120_000);
});

describe('connection bursts (real daemon)', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterAll(async () => {
    await d.stop();
  });

  it('accepts a burst of 2,000 connects and answers each hello', async () => {
    const sessions = Array.from({ length: 2000 }, () => rawSession(d.socketPath));
    const results = await Promise.allSettled(sessions.map((s) => s.connected));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    for (const s of sessions) s.send(hello('burst'));
    const answers = await Promise.all(sessions.map((s) => s.next(1)));
    expect(answers.filter((a) => !a?.result).length).toBe(0);
    for (const s of sessions) s.socket.destroy();
  }, 120_000);
});
