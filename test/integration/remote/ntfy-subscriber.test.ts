import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileNtfyCursor } from '../../../main/remote/ntfy-cursor';
import { NtfySubscriber, type NtfyStreamEvent } from '../../../main/remote/ntfy-subscriber';
import { FakeClock } from '../../support/fake-clock';
import { startNtfyServer } from '../../support/ntfy-server';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function setup(token?: string) {
  const ntfy = await startNtfyServer(token ? { token } : {});
  closers.push(ntfy.close);
  const clock = new FakeClock();
  const received: NtfyStreamEvent[] = [];
  const logged: string[] = [];
  const saved: string[] = [];
  const opens: string[] = [];
  const subscriber = new NtfySubscriber({
    clock,
    server: ntfy.url,
    topic: 'gh-replies',
    ...(token ? { token } : {}),
    onMessage: (m) => void received.push(m),
    cursor: { load: () => undefined, save: (id) => void saved.push(id) },
    initialSince: 'all',
    onOpen: (since) => void opens.push(since),
    initialBackoffMs: 1_000,
    log: (m) => logged.push(m),
  });
  closers.push(() => subscriber.stop());
  const publish = async (text: string): Promise<string> => {
    const res = await fetch(`${ntfy.url}/gh-replies`, {
      method: 'POST',
      body: text,
      ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
    });
    return ((await res.json()) as { id: string }).id;
  };
  return { ntfy, clock, subscriber, received, logged, saved, opens, publish };
}

describe('ntfy reply-topic subscriber against a local ntfy server', () => {
  it('gets each message once, and after the server drops the stream resumes from the last id', async () => {
    const t = await setup();
    t.subscriber.start();
    await t.ntfy.until(() => t.ntfy.subscriberCount('gh-replies') === 1);
    expect(t.ntfy.subscriptions[0]).toEqual({ topic: 'gh-replies', since: 'all' });
    const first = await t.publish('token-1');
    await vi.waitFor(() => expect(t.received.map((m) => m.message)).toEqual(['token-1']));

    t.ntfy.dropStreams();
    await vi.waitFor(() =>
      expect(t.logged.join('\n')).toMatch(/stream (ended|failed), reconnecting in 1000 ms/),
    );
    // Pressed while Gatehouse was not connected: ntfy keeps it, the resume must fetch it.
    await t.publish('token-2');
    t.clock.advance(1_000);
    await t.ntfy.until(() => t.ntfy.subscriberCount('gh-replies') === 1);
    expect(t.ntfy.subscriptions[1]).toEqual({ topic: 'gh-replies', since: first });
    await vi.waitFor(() =>
      expect(t.received.map((m) => m.message)).toEqual(['token-1', 'token-2']),
    );
    await t.publish('token-3');
    await vi.waitFor(() => expect(t.received).toHaveLength(3));
    expect(t.saved).toEqual(t.received.map((m) => m.id));
  });

  it('backs off longer on each failed attempt and resets once a stream opens', async () => {
    const t = await setup('tk_right');
    const wrong = new NtfySubscriber({
      clock: t.clock,
      server: t.ntfy.url,
      topic: 'gh-replies',
      token: 'tk_wrong',
      onMessage: () => undefined,
      initialBackoffMs: 1_000,
      log: (m) => t.logged.push(m),
    });
    closers.push(() => wrong.stop());
    wrong.start();
    await vi.waitFor(() => expect(t.logged.at(-1)).toMatch(/failed, reconnecting in 1000 ms/));
    t.clock.advance(1_000);
    await vi.waitFor(() => expect(t.logged.at(-1)).toMatch(/failed, reconnecting in 2000 ms/));
    t.clock.advance(2_000);
    await vi.waitFor(() => expect(t.logged.at(-1)).toMatch(/failed, reconnecting in 4000 ms/));
    expect(t.ntfy.subscriptions).toEqual([]);
  });

  it('reconnects a stream that went silent past the idle timeout', async () => {
    const t = await setup();
    t.subscriber.start();
    await vi.waitFor(() => expect(t.opens).toEqual(['all']));
    t.clock.advance(120_000); // no keepalive for two minutes: the connection is presumed dead
    await vi.waitFor(() => expect(t.logged.join('\n')).toMatch(/reconnecting in 1000 ms/));
    t.clock.advance(1_000);
    await t.ntfy.until(() => t.ntfy.subscriptions.length === 2);
  });

  it('a restart resumes after the last id the previous run handled (the cursor file)', async () => {
    const t = await setup();
    const dir = mkdtempSync(join(tmpdir(), 'gh-cursor-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'ntfy-reply-cursor.json');
    const got: string[] = [];
    const run = () =>
      new NtfySubscriber({
        clock: t.clock,
        server: t.ntfy.url,
        topic: 'gh-replies',
        onMessage: (m) => void got.push(m.message),
        cursor: new FileNtfyCursor(file, 'gh-replies'),
        initialSince: 'all',
        log: () => undefined,
      });
    const first = run();
    first.start();
    await t.ntfy.until(() => t.ntfy.subscriberCount('gh-replies') === 1);
    const seen = await t.publish('before-restart');
    await vi.waitFor(() => expect(got).toEqual(['before-restart']));
    await vi.waitFor(() => expect(new FileNtfyCursor(file, 'gh-replies').load()).toBe(seen));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new FileNtfyCursor(file, 'another-topic').load()).toBeUndefined();
    await first.stop();

    await t.publish('while-stopped');
    const second = run();
    closers.push(() => second.stop());
    second.start();
    await vi.waitFor(() => expect(got).toEqual(['before-restart', 'while-stopped']));
    expect(t.ntfy.subscriptions.at(-1)).toEqual({ topic: 'gh-replies', since: seen });
  });
});
