import { connect } from 'node:net';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';

/** Sends raw lines on a fresh connection and collects the answers. */
function rawSession(socketPath: string) {
  const socket = connect(socketPath);
  let buffer = '';
  const messages: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let closed = false;
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      messages.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
      waiters.splice(0).forEach((w) => w());
    }
  });
  socket.on('close', () => {
    closed = true;
    waiters.splice(0).forEach((w) => w());
  });
  return {
    socket,
    messages,
    get closed() {
      return closed;
    },
    send(line: string) {
      socket.write(line.endsWith('\n') ? line : `${line}\n`);
    },
    async next(count = messages.length + 1): Promise<Record<string, unknown>> {
      while (messages.length < count && !closed) await new Promise<void>((r) => waiters.push(r));
      return messages[count - 1]!;
    },
    async waitClosed() {
      while (!closed) await new Promise<void>((r) => waiters.push(r));
    },
  };
}

const errorCode = (m: Record<string, unknown>) => (m.error as { code: number } | undefined)?.code;

describe('agent socket (real daemon)', () => {
  let d: TestDaemon;
  beforeEach(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterEach(async () => {
    await d.stop();
  });

  it('creates the socket 0600 in a 0700 directory', () => {
    expect(statSync(d.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(d.socketPath)).mode & 0o777).toBe(0o700);
    expect(statSync(d.home).mode & 0o777).toBe(0o700);
  });

  it('answers every kind of bad input with its error and keeps serving others', async () => {
    const bystander = await d.agent({ agent: 'bystander' });
    const s = rawSession(d.socketPath);
    s.send('this is not json');
    expect(errorCode(await s.next(1))).toBe(-32700);
    s.send('[{"jsonrpc":"2.0","id":1,"method":"hello"}]');
    expect(errorCode(await s.next(2))).toBe(-32600);
    s.send('42');
    expect(errorCode(await s.next(3))).toBe(-32600);
    s.send('{"jsonrpc":"2.0","id":4,"method":"classify","params":{"action":"read_file"}}');
    expect(errorCode(await s.next(4))).toBe(-32010);
    s.send('{"jsonrpc":"2.0","id":5,"method":"hello","params":{"agent":""}}');
    const bad = await s.next(5);
    expect(errorCode(bad)).toBe(-32602);
    expect(JSON.stringify((bad.error as { data: unknown }).data)).toContain('agent');
    s.send('{"jsonrpc":"2.0","id":6,"method":"hello","params":{"agent":"raw"}}');
    expect((await s.next(6)).result).toMatchObject({ protocol: 1, server: { name: 'gatehouse' } });
    s.send('{"jsonrpc":"2.0","id":7,"method":"request","params":{"action":5,"description":["x"]}}');
    const wrongTypes = await s.next(7);
    expect(errorCode(wrongTypes)).toBe(-32602);
    expect(
      (wrongTypes.error as { data: { path: string }[] }).data.map((p) => p.path).sort(),
    ).toEqual(['action', 'description']);
    s.send('{"jsonrpc":"2.0","id":8,"method":"fly","params":{}}');
    expect(errorCode(await s.next(8))).toBe(-32601);
    s.send(
      '{"jsonrpc":"2.0","id":9,"method":"decide","params":{"requestId":"x","decision":"approve"}}',
    );
    expect(errorCode(await s.next(9))).toBe(-32601);
    s.send('{"jsonrpc":"2.0","id":10,"method":"pending.list","params":{}}');
    expect(errorCode(await s.next(10))).toBe(-32601);
    s.send('{"jsonrpc":"2.0","id":11,"method":"auth","params":{"token":"guess"}}');
    expect(errorCode(await s.next(11))).toBe(-32001);
    // An over-long line gets -32005 and the connection is closed.
    s.send(
      `{"jsonrpc":"2.0","id":12,"method":"log","params":{"type":"x","description":"${'a'.repeat(1024 * 1024 + 10)}"}}`,
    );
    expect(errorCode(await s.next(11 + 1))).toBe(-32005);
    await s.waitClosed();
    // The daemon and the other connection are fine.
    expect((await bystander.classify({ action: 'git_push' })).tier).toBe('ask');
    bystander.close();
  });

  it('answers pipelined calls out of order: a waiting request does not block later calls', async () => {
    const s = rawSession(d.socketPath);
    s.send('{"jsonrpc":"2.0","id":"h","method":"hello","params":{"agent":"pipeliner"}}');
    await s.next(1);
    s.send(
      '{"jsonrpc":"2.0","id":"slow","method":"request","params":{"action":"deploy","description":"deploy","timeoutMs":300}}',
    );
    s.send('{"jsonrpc":"2.0","id":"fast","method":"classify","params":{"action":"read_file"}}');
    expect((await s.next(2)).id).toBe('fast');
    const slow = await s.next(3);
    expect(slow.id).toBe('slow');
    expect(slow.result).toMatchObject({ status: 'timed_out' });
    s.socket.destroy();
  });

  it('handles a call written with hello in one write after it, and refuses it behind a failed hello', async () => {
    // The command hooks write hello and gate together without waiting (relay-link.ts).
    const gate = (id: string) =>
      `{"jsonrpc":"2.0","id":"${id}","method":"gate","params":{"client":"claude-code","event":"PreToolUse","tool":"Read","input":{"file_path":"${d.home}/../x.txt"},"wait":false}}`;
    const s = rawSession(d.socketPath);
    s.send(
      `{"jsonrpc":"2.0","id":"h","method":"hello","params":{"agent":"pipeliner"}}\n${gate('g')}`,
    );
    const [first, second] = [await s.next(1), await s.next(2)];
    const byId = Object.fromEntries([first, second].map((m) => [m.id as string, m]));
    expect(byId.h!.result).toMatchObject({ protocol: 1 });
    expect(byId.g!.error).toBeUndefined();
    expect(byId.g!.result).toMatchObject({ outcome: expect.any(String) });
    s.socket.destroy();

    const refused = rawSession(d.socketPath);
    refused.send(`{"jsonrpc":"2.0","id":"h","method":"hello","params":{"agent":""}}\n${gate('g')}`);
    const answers = [await refused.next(1), await refused.next(2)];
    const refusedById = Object.fromEntries(answers.map((m) => [m.id as string, errorCode(m)]));
    expect(refusedById).toEqual({ h: -32602, g: -32010 });
    refused.socket.destroy();
  });

  it('refuses to start a second instance on a live socket and replaces a stale one', async () => {
    const second = await d.cli(['daemon', '--no-dashboard']);
    expect(second.code).toBe(1);
    // The data folder's lock refuses it before the socket is even looked at.
    expect(second.stderr).toContain('is already using the data folder');
    await d.kill9(); // leaves the socket file behind
    await d.launch(['--no-dashboard']);
    const agent = await d.agent({ agent: 'after-restart' });
    expect((await agent.classify({ action: 'read_file' })).tier).toBe('auto');
    agent.close();
  });

  it('never lets an agent approve its own request', async () => {
    const agent = await d.agent({ agent: 'sneaky' });
    const queued = await agent.request({
      action: 'send_email',
      description: 'mail the boss',
      wait: false,
    });
    expect(queued.status).toBe('queued');
    const s = rawSession(d.socketPath);
    s.send('{"jsonrpc":"2.0","id":1,"method":"hello","params":{"agent":"sneaky"}}');
    await s.next(1);
    s.send(
      `{"jsonrpc":"2.0","id":2,"method":"decide","params":{"requestId":"${queued.requestId}","decision":"approve"}}`,
    );
    expect(errorCode(await s.next(2))).toBe(-32601);
    s.socket.destroy();
    const { request } = await (
      await d.admin()
    ).call('request.get', { requestId: queued.requestId });
    expect(request.status).toBe('pending');
    agent.close();
  });
});
