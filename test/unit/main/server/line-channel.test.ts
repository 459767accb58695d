/**
 * The line channel on its own: framing, the shared input byte budget, the unfinished-line
 * timeout (on a fake clock), output backpressure, and closing, over a real Unix socket with a
 * real scheduler. What receives its lines is a plain recorder: no JSON-RPC here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LineChannel,
  type ChannelBreach,
  type LineChannelDeps,
} from '../../../../main/server/line-channel';
import { LineScheduler } from '../../../../main/server/line-scheduler';
import { ByteBudget } from '../../../../main/server/socket-limits';
import { FakeClock } from '../../../support/fake-clock';

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** What a channel handed its receiver. */
interface Received {
  lines: string[];
  breaches: ChannelBreach[];
  closed: boolean;
}

const until = async (done: () => boolean, what: string) => {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
};

/**
 * A listening socket whose every connection gets a channel with `deps` (over the defaults),
 * and a client connected to it.
 */
async function channelPair(deps: Partial<LineChannelDeps> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-channel-'));
  dirs.push(dir);
  const path = join(dir, 's.sock');
  const clock = deps.clock ?? new FakeClock();
  const fullDeps: LineChannelDeps = {
    clock,
    maxLineBytes: 1024,
    lineTimeoutMs: 5_000,
    outputHighWaterBytes: 16 * 1024,
    buffered: new ByteBudget(1024 * 1024),
    scheduler: new LineScheduler({
      maxLinesPerTurn: 32,
      budgetMs: 1,
      deepBudgetMs: 0.1,
      shallowLines: 32,
    }),
    ...deps,
  };
  const accepted: { channel: LineChannel; got: Received }[] = [];
  const server = createServer((socket) => {
    const channel = new LineChannel(socket, fullDeps);
    const got: Received = { lines: [], breaches: [], closed: false };
    channel.open({
      line: (text) => got.lines.push(text),
      breach: (b) => got.breaches.push(b),
      closed: () => (got.closed = true),
    });
    accepted.push({ channel, got });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(path, r));
  const connectClient = async () => {
    const n = accepted.length;
    const client: Socket = connect(path);
    await new Promise<void>((r, j) => client.once('connect', r).once('error', j));
    await until(() => accepted.length > n, 'the connection');
    const output: string[] = [];
    client.setEncoding('utf8');
    client.on('data', (d: string) => output.push(d));
    client.on('error', () => undefined);
    return { client, output, ...accepted[n]! };
  };
  return { deps: fullDeps, connectClient };
}

describe('LineChannel', () => {
  it('hands complete lines in order across chunk boundaries, without blanks or CRs', async () => {
    const { connectClient } = await channelPair();
    const { client, got } = await connectClient();
    client.write('{"a":1}\r\n\n   \n{"b":');
    await new Promise((r) => setTimeout(r, 20));
    client.write('2}\n{"c":3}');
    await until(() => got.lines.length === 2, 'two lines');
    expect(got.lines).toEqual(['{"a":1}', '{"b":2}']);
    client.write('\n');
    await until(() => got.lines.length === 3, 'the third line');
    expect(got.lines[2]).toBe('{"c":3}');
    client.destroy();
  });

  it('reports a line longer than the largest frame, and hands nothing after it', async () => {
    const { connectClient } = await channelPair({ maxLineBytes: 100 });
    const { client, got, channel } = await connectClient();
    client.write(`${'x'.repeat(60)}`);
    client.write(`${'y'.repeat(60)}\n{"after":1}\n`);
    await until(() => got.breaches.length === 1, 'the breach');
    expect(got.breaches[0]).toEqual({ kind: 'line-too-long', maxBytes: 100 });
    // The receiver answers a breach by closing: afterwards the channel reads nothing.
    channel.closeWith('{"bye":true}');
    await until(() => got.closed, 'the close');
    expect(got.lines).toEqual([]);
    client.destroy();
  });

  it('counts unfinished lines of all connections against one budget, and gives it back', async () => {
    const buffered = new ByteBudget(1000);
    const { connectClient } = await channelPair({ buffered });
    const a = await connectClient();
    const b = await connectClient();
    a.client.write('z'.repeat(600));
    await until(() => buffered.usedBytes === 600, 'a to hold 600 bytes');
    b.client.write('z'.repeat(600));
    await until(() => b.got.breaches.length === 1, "b's breach");
    expect(b.got.breaches[0]).toEqual({ kind: 'input-budget-spent' });
    // b took nothing: what it was refused is not held.
    expect(buffered.usedBytes).toBe(600);
    // a finishing its line gives its bytes back.
    a.client.write('\n');
    await until(() => a.got.lines.length === 1, "a's line");
    expect(buffered.usedBytes).toBe(0);
    a.client.write('q'.repeat(300));
    await until(() => buffered.usedBytes === 300, 'a to hold 300 bytes');
    a.client.destroy();
    await until(() => a.got.closed, "a's close");
    expect(buffered.usedBytes).toBe(0);
    b.client.destroy();
  });

  it('reports a line left unfinished for the timeout, by the injected clock', async () => {
    const clock = new FakeClock();
    const { connectClient } = await channelPair({ clock, lineTimeoutMs: 5_000 });
    const { client, got } = await connectClient();
    client.write('{"slow":');
    await until(() => clock.pendingTimers() === 1, 'the timer');
    clock.advance(4_999);
    expect(got.breaches).toEqual([]);
    clock.advance(1);
    expect(got.breaches).toEqual([{ kind: 'line-timeout', ms: 5_000 }]);
    client.destroy();
  });

  it('stops the timeout once the line is finished', async () => {
    const clock = new FakeClock();
    const { connectClient } = await channelPair({ clock, lineTimeoutMs: 5_000 });
    const { client, got } = await connectClient();
    client.write('{"slow":');
    await until(() => clock.pendingTimers() === 1, 'the timer');
    clock.advance(4_000);
    client.write('1}\n');
    await until(() => got.lines.length === 1, 'the line');
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(60_000);
    expect(got.breaches).toEqual([]);
    client.destroy();
  });

  it('writes the lines sent in one tick in order, each with its newline', async () => {
    const { connectClient } = await channelPair();
    const { client, output, channel } = await connectClient();
    channel.send('one');
    channel.send('two');
    channel.send('three');
    await until(() => output.join('').split('\n').length === 4, 'three lines');
    expect(output.join('')).toBe('one\ntwo\nthree\n');
    client.destroy();
  });

  it("stops handling a client's lines while it does not read its replies, and goes on when it does", async () => {
    const { connectClient } = await channelPair({ outputHighWaterBytes: 16 * 1024 });
    const { client, got, channel } = await connectClient();
    client.pause();
    // Each line handled is answered with 64 KiB that the client does not read.
    const reply = 'r'.repeat(64 * 1024);
    const handledWithin = async (n: number, ms: number) => {
      for (const end = Date.now() + ms; got.lines.length < n && Date.now() < end;)
        await new Promise((r) => setTimeout(r, 2));
      return got.lines.length >= n;
    };
    // Lines one at a time, each answered, until the channel stops taking them: the kernel's
    // buffers and our 16 KiB above them are full.
    let sent = 0;
    for (; sent < 400; sent++) {
      client.write(`{"n":${sent}}\n`);
      if (!(await handledWithin(sent + 1, 300))) break;
      channel.send(reply);
    }
    expect(sent).toBeLessThan(400);
    expect(got.lines.length).toBe(sent);
    // Reading the replies drains the channel; the line that waited is then handled.
    client.resume();
    expect(await handledWithin(sent + 1, 4000)).toBe(true);
    expect(got.lines.at(-1)).toBe(`{"n":${sent}}`);
    client.destroy();
  });

  it('closeWith sends its last line and closes; stopReading keeps sending but hands no line', async () => {
    const { connectClient } = await channelPair();
    const a = await connectClient();
    a.channel.send('first');
    a.channel.closeWith('last');
    await new Promise<void>((r) => a.client.once('close', () => r()));
    expect(a.output.join('')).toBe('first\nlast\n');
    // Already closing: a second last word is not sent.
    a.channel.closeWith('again');
    expect(a.channel.isClosing).toBe(true);

    const b = await connectClient();
    b.channel.stopReading();
    b.client.write('{"ignored":1}\n');
    b.channel.send('still answered');
    await until(() => b.output.join('') === 'still answered\n', 'the answer');
    await new Promise((r) => setTimeout(r, 20));
    expect(b.got.lines).toEqual([]);
    b.client.destroy();
  });
});
