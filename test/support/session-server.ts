/**
 * A Unix socket served by one RpcSession per connection (above a real line channel), over a
 * real engine in a temp dir (engine-harness.ts). The sessions share the engine's fake clock
 * unless a test gives them another (the system clock, for a client that really waits).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineAdminService } from '../../main/server/admin-service';
import { CallBudget } from '../../main/server/call-budget';
import { LineChannel } from '../../main/server/line-channel';
import { LineScheduler } from '../../main/server/line-scheduler';
import { PeerAuthThrottle } from '../../main/server/peer-auth-throttle';
import { PeerProcessLookup } from '../../main/server/peer-process';
import { RpcSession } from '../../main/server/rpc-session';
import { ByteBudget, DEFAULT_SOCKET_LIMITS } from '../../main/server/socket-limits';
import type { Clock } from '../../shared/clock';
import { EngineHarness } from './engine-harness';
import { rawSession } from './raw-socket';

/** The admin token the sessions accept. */
export const TOKEN = 'a'.repeat(64);

const notHere = () => {
  throw new Error('not used by these tests');
};

/**
 * Starts the server; `cleanups` receives what closes it (and each client it connects).
 * Returns the socket path besides the harness, the sessions and a raw client.
 */
export async function sessionServer(
  cleanups: (() => void | Promise<void>)[],
  o: { rateLimitPerSecond?: number; maxLineBytes?: number; sessionClock?: Clock } = {},
) {
  const h = new EngineHarness();
  const clock = o.sessionClock ?? h.clock;
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-session-'));
  const path = join(dir, 's.sock');
  const admin = new EngineAdminService(
    h.engine,
    h.bus,
    { version: 'test', socketPath: path, home: dir, startedAt: h.clock.now() },
    { 'request.link': notHere },
    {
      'ntfy.setup': notHere,
      'notifications.test': notHere,
      'chat.pause': notHere,
      'chat.telegramChats': notHere,
      'chat.telegramUse': notHere,
    },
    {
      'retention.prune': notHere,
      'audit.verify': notHere,
      'audit.verifyHub': notHere,
      'audit.exportSignature': notHere,
      'audit.key': notHere,
    },
  );
  const lookup = new PeerProcessLookup();
  const authThrottle = new PeerAuthThrottle({
    ratePerSecond: 2,
    burst: 10,
    lookup,
    now: () => h.clock.now(),
  });
  const budget = new CallBudget(DEFAULT_SOCKET_LIMITS);
  const scheduler = new LineScheduler({
    maxLinesPerTurn: 32,
    budgetMs: 1,
    deepBudgetMs: 0.1,
    shallowLines: 32,
  });
  const buffered = new ByteBudget(1024 * 1024);
  const sessions: RpcSession[] = [];
  const closed: RpcSession[] = [];
  let connections = 0;
  const server: Server = createServer((socket) => {
    const channel = new LineChannel(socket, {
      clock,
      maxLineBytes: o.maxLineBytes ?? 1024 * 1024,
      lineTimeoutMs: 30_000,
      outputHighWaterBytes: 16 * 1024,
      buffered,
      scheduler,
      afterOpenWrites: (fn) => h.engine.whenDurable(fn, fn),
    });
    sessions.push(
      new RpcSession(channel, {
        engine: h.engine,
        admin,
        adminToken: () => TOKEN,
        clock,
        rateLimitPerSecond: o.rateLimitPerSecond ?? 1000,
        helloTimeoutMs: 10_000,
        authThrottle,
        connectionId: ++connections,
        calls: budget.forConnection(),
        onHello: () => undefined,
        onHelloUndone: () => undefined,
        onClose: (s) => closed.push(s),
      }),
    );
  });
  await new Promise<void>((r) => server.listen(path, r));
  cleanups.push(async () => {
    for (const s of sessions) s.destroy();
    server.close();
    lookup.stop();
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const connectClient = async () => {
    const c = rawSession(path);
    await c.connected;
    cleanups.push(() => void c.socket.destroy());
    return c;
  };
  return { h, path, sessions, closed, connectClient };
}
