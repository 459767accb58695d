/**
 * The RPC session on its own (above a real line channel on a real Unix socket): envelopes and
 * their errors, the per-connection rate limit and the hello timeout on a fake clock (no
 * sleeps), auth and its failures, dispatch by role. The engine is real, over SQLite in a temp
 * dir (engine-harness.ts), and shares the session's fake clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_AUTH_FAILURES } from '../../../../main/server/socket-admin-auth';
import { ErrorCode } from '../../../../shared/protocol/errors';
import { sessionServer as startSessionServer, TOKEN } from '../../../support/session-server';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sessionServer = (o: { rateLimitPerSecond?: number; maxLineBytes?: number } = {}) =>
  startSessionServer(cleanups, o);

describe('RpcSession', () => {
  it('limits calls per second by the injected clock, answering -32004 and dropping notifications', async () => {
    const { h, connectClient } = await sessionServer({ rateLimitPerSecond: 3 });
    const c = await connectClient();
    const classify = { action: 'read_file', paths: ['src/a.ts'] };
    expect((await c.call('hello', { agent: 'a' }))?.result).toBeTruthy();
    expect((await c.call('classify', classify))?.result).toMatchObject({ tier: 'auto' });
    expect((await c.call('classify', classify))?.result).toMatchObject({ tier: 'auto' });
    // The clock has not moved: the second's three calls are spent.
    const refused = await c.call('classify', classify);
    // It says when a token is back: a third of a second at three a second.
    expect(refused?.error).toEqual({
      code: ErrorCode.RateLimited,
      message: 'rate limited: slow down',
      data: { retryAfterMs: 334 },
    });
    // A notification over the rate is dropped: the call behind it is the next answer.
    c.send(JSON.stringify({ jsonrpc: '2.0', method: 'log', params: { type: 'x' } }));
    const behind = c.messages.length;
    expect((await c.call('classify', classify))?.error).toMatchObject({
      code: ErrorCode.RateLimited,
    });
    expect(c.messages.length).toBe(behind + 1);
    // A third of a second gives one call back.
    h.clock.advance(334);
    const before = c.messages.length;
    const after = await c.call('classify', classify);
    expect(after?.result).toMatchObject({ tier: 'auto' });
    expect(c.messages.length).toBe(before + 1);
    expect((await c.call('classify', classify))?.error).toMatchObject({
      code: ErrorCode.RateLimited,
    });
    // A full second refills the bucket, never past one second's worth.
    h.clock.advance(60_000);
    for (let i = 0; i < 3; i++)
      expect((await c.call('classify', classify))?.result).toMatchObject({ tier: 'auto' });
    expect((await c.call('classify', classify))?.error).toMatchObject({
      code: ErrorCode.RateLimited,
    });
  });

  it('closes a connection without hello once the injected clock passes the timeout', async () => {
    const { h, connectClient } = await sessionServer();
    const silent = await connectClient();
    const greeted = await connectClient();
    expect((await greeted.call('hello', { agent: 'a' }))?.result).toBeTruthy();
    h.clock.advance(9_999);
    expect(silent.closed).toBe(false);
    h.clock.advance(1);
    await silent.waitClosed();
    expect(silent.messages).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.HelloRequired, message: 'no hello within 10000 ms' },
      },
    ]);
    // The one that said hello stays.
    expect((await greeted.call('classify', { action: 'read_file' }))?.result).toBeTruthy();
  });

  it('answers lines that are not calls with the JSON-RPC error each deserves', async () => {
    const { connectClient } = await sessionServer();
    const c = await connectClient();
    c.send('not json');
    c.send('[{"jsonrpc":"2.0","id":1,"method":"hello"}]');
    c.send('{"jsonrpc":"2.0","id":"x7","params":{}}');
    c.send('['.repeat(65) + ']'.repeat(65));
    c.send('['.repeat(100));
    c.send(
      `{"jsonrpc":"2.0","id":9,"method":"classify","params":{"deep":${'['.repeat(70)}${']'.repeat(70)}}}`,
    );
    await c.next(6);
    const errors = c.messages.map((m) => [m.id, (m.error as { code: number }).code]);
    const deep = ErrorCode.InvalidRequest;
    expect(errors).toEqual([
      [null, ErrorCode.ParseError],
      [null, ErrorCode.InvalidRequest],
      ['x7', ErrorCode.InvalidRequest],
      [null, deep],
      // Short and not JSON, yet too deep: refused as too deep, like a long line.
      [null, deep],
      [null, deep],
    ]);
    for (const i of [3, 4, 5])
      expect((c.messages[i]!.error as { message: string }).message).toBe(
        'invalid request: JSON nested deeper than 64 levels',
      );
  });

  it('answers a breach of its channel on the wire, then closes', async () => {
    const { closed, connectClient } = await sessionServer({ maxLineBytes: 64 });
    const c = await connectClient();
    c.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hello', params: { agent: 'x'.repeat(80) } }),
    );
    await c.waitClosed();
    expect(c.messages).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.FrameTooLarge, message: 'frame larger than 64 bytes' },
      },
    ]);
    expect(closed.length).toBe(1);
  });

  it('keeps admin methods from the agent role and gives them to a connection that authenticated', async () => {
    const { connectClient } = await sessionServer();
    const c = await connectClient();
    expect((await c.call('classify', { action: 'read_file' }))?.error).toMatchObject({
      code: ErrorCode.HelloRequired,
    });
    expect((await c.call('status'))?.error).toMatchObject({
      code: ErrorCode.MethodNotFound,
      message: 'method "status" is not allowed for the agent role',
    });
    expect((await c.call('no.such'))?.error).toMatchObject({ code: ErrorCode.MethodNotFound });
    expect((await c.call('auth', { token: TOKEN }))?.result).toEqual({ role: 'admin' });
    expect((await c.call('status'))?.result).toMatchObject({ pending: 0 });
  });

  it(`audits each wrong token and closes after ${MAX_AUTH_FAILURES} of them, answering the last`, async () => {
    const { h, connectClient } = await sessionServer();
    const c = await connectClient();
    for (let i = 1; i <= MAX_AUTH_FAILURES; i++) {
      const answer = await c.call('auth', { token: 'b'.repeat(64) });
      expect(answer?.error).toMatchObject({ code: ErrorCode.Unauthorized });
    }
    await c.waitClosed();
    const failed = h.engine.admin
      .call('audit.query', { type: 'auth.failed', limit: 100 })
      .events.map((e) => e.data as { failures: number; reason: string; connection: number });
    expect(failed.map((d) => d.failures).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(failed.map((d) => d.reason))).toEqual(new Set(['wrong_token']));
    expect(new Set(failed.map((d) => d.connection)).size).toBe(1);
  });

  it('the right token stops the hello timeout, as a hello does', async () => {
    const { h, connectClient } = await sessionServer();
    const c = await connectClient();
    expect((await c.call('auth', { token: TOKEN }))?.result).toEqual({ role: 'admin' });
    h.clock.advance(60_000);
    expect((await c.call('status'))?.result).toBeTruthy();
    expect(c.closed).toBe(false);
  });
});

describe("a connection's answers waiting for a commit", () => {
  const line = (id: number, method: string, params: object) =>
    JSON.stringify({ jsonrpc: '2.0', id, method, params });

  it("sends a hook's hello and call answers in one write when they come in one", async () => {
    const { connectClient } = await sessionServer();
    // Its session exists (an earlier tool call): the hello writes nothing and answers at once.
    const earlier = await connectClient();
    expect(
      (await earlier.call('hello', { agent: 'hooked', sessionKey: 'k' }))?.result,
    ).toBeTruthy();
    earlier.socket.destroy();
    const c = await connectClient();
    let chunks = 0;
    c.socket.on('data', () => chunks++);
    // What a command hook sends: its hello and its one call (which writes: a log entry).
    c.send(
      `${line(1, 'hello', { agent: 'hooked', sessionKey: 'k' })}\n${line(2, 'log', { type: 'note', description: 'x' })}`,
    );
    await c.next(2);
    expect(c.messages.map((m) => m.id)).toEqual([1, 2]);
    expect(c.messages[1]?.result).toEqual({ ok: true });
    expect(chunks).toBe(1);
  });

  it('does not hold answers behind a call that waits for a person', async () => {
    const { h, connectClient } = await sessionServer();
    const c = await connectClient();
    expect((await c.call('hello', { agent: 'asker' }))?.result).toBeTruthy();
    const waiting = c.call('request', {
      action: 'deploy',
      description: 'deploy',
      wait: true,
      timeoutMs: 60_000,
    });
    expect((await c.call('log', { type: 'note', description: 'meanwhile' }))?.result).toEqual({
      ok: true,
    });
    expect((await c.call('classify', { action: 'read_file' }))?.result).toMatchObject({
      tier: 'auto',
    });
    const [pending] = h.store.listOpenRequests();
    await h.engine.admin.call('decide', {
      requestId: pending!.requestId,
      decision: 'approve',
      scope: 'once',
    });
    expect((await waiting)?.result).toMatchObject({ status: 'approved' });
  });
});
