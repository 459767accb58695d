import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Clock } from '../../shared/clock';
import { MAX_FRAME_BYTES } from '../../shared/protocol/constants';
import { checkSocketFile, ensureSocketDir, isNamedPipe } from '../../shared/node/socket-dir';
import { systemClock } from '../../shared/node/system-clock';
import type { Engine } from '../engine/engine';
import type { AdminService } from './admin-port';
import type { ConnectionRegistry } from './connection-registry';
import { CallBudget } from './call-budget';
import { PeerAuthThrottle } from './peer-auth-throttle';
import { PeerProcessLookup } from './peer-process';
import { LineChannel } from './line-channel';
import { LineScheduler } from './line-scheduler';
import { RpcSession } from './rpc-session';
import { ByteBudget, DEFAULT_SOCKET_LIMITS, type SocketLimits } from './socket-limits';

export class AlreadyRunningError extends Error {
  constructor(readonly socketPath: string) {
    super(`another Gatehouse is already running on ${socketPath}`);
  }
}

export interface AgentSocketDeps {
  engine: Engine;
  admin: AdminService;
  registry: ConnectionRegistry;
  adminToken: () => string;
  rateLimitPerSecond?: number;
  /** Backpressure, fairness and timeouts; {@link DEFAULT_SOCKET_LIMITS} when absent. */
  limits?: SocketLimits | undefined;
  /** Rate limits and timeouts read this clock; the system clock when absent. */
  clock?: Clock;
}

/** Pending connections the kernel queues for us (Linux caps it at net.core.somaxconn). */
const LISTEN_BACKLOG = 4096;

/** Resolves true when something accepts connections on `path`. */
function isLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * The agent socket: a Unix domain socket (a named pipe on Windows) speaking NDJSON
 * JSON-RPC. Its directory is 0700 and the socket 0600; a stale socket file is replaced, a
 * live one means another instance runs.
 */
export class AgentSocketServer {
  private server?: Server | undefined;
  private path?: string;
  private readonly limits: SocketLimits;
  private readonly buffered: ByteBudget;
  private readonly peerLookup = new PeerProcessLookup();
  private readonly authThrottle: PeerAuthThrottle;
  private readonly scheduler: LineScheduler;
  private readonly calls: CallBudget;
  private readonly clock: Clock;
  private connections = 0;
  /** A channel's output waits for the engine's open writes (see LineChannelDeps). */
  private readonly afterOpenWrites = (fn: () => void): void => this.d.engine.whenDurable(fn, fn);

  constructor(private readonly d: AgentSocketDeps) {
    this.limits = d.limits ?? DEFAULT_SOCKET_LIMITS;
    this.clock = d.clock ?? systemClock;
    this.buffered = new ByteBudget(this.limits.maxBufferedBytes);
    this.scheduler = new LineScheduler({
      maxLinesPerTurn: this.limits.maxLinesPerTurn,
      budgetMs: this.limits.turnBudgetMs,
      deepBudgetMs: this.limits.deepTurnBudgetMs,
      shallowLines: this.limits.shallowLines,
    });
    this.calls = new CallBudget(this.limits);
    this.authThrottle = new PeerAuthThrottle({
      ratePerSecond: this.limits.authFailuresPerSecond,
      burst: this.limits.authFailureBurst,
      lookup: this.peerLookup,
      now: () => this.clock.now(),
    });
  }

  async listen(path: string): Promise<void> {
    const isPipe = process.platform === 'win32' && isNamedPipe(path);
    if (!isPipe) {
      // Created 0700 when missing; a directory that exists must already be ours and 0700.
      ensureSocketDir(path);
      checkSocketFile(path);
      if (existsSync(path)) {
        if (await isLive(path)) throw new AlreadyRunningError(path);
        unlinkSync(path);
      }
    }
    const server = createServer((socket) => this.accept(socket));
    // The umask makes the socket 0600 from its first moment; chmod below makes it certain.
    const oldMask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        // A burst of agents (2,000 one-shot hooks at once) must not find the queue full.
        server.listen({ path, backlog: LISTEN_BACKLOG }, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
        throw new AlreadyRunningError(path);
      throw error;
    } finally {
      process.umask(oldMask);
    }
    if (!isPipe) chmodSync(path, 0o600);
    this.server = server;
    this.path = path;
  }

  /** A new client: a line channel for its bytes, an RPC session for its calls. */
  private accept(socket: Socket): void {
    const { registry, engine } = this.d;
    const limits = this.limits;
    const clock = this.clock;
    const channel = new LineChannel(socket, {
      clock,
      maxLineBytes: MAX_FRAME_BYTES,
      lineTimeoutMs: limits.lineTimeoutMs,
      outputHighWaterBytes: limits.outputHighWaterBytes,
      buffered: this.buffered,
      scheduler: this.scheduler,
      afterOpenWrites: this.afterOpenWrites,
    });
    const session = new RpcSession(channel, {
      engine,
      admin: this.d.admin,
      adminToken: this.d.adminToken,
      clock,
      rateLimitPerSecond: this.d.rateLimitPerSecond ?? 20_000,
      helloTimeoutMs: limits.helloTimeoutMs,
      authThrottle: this.authThrottle,
      connectionId: ++this.connections,
      calls: this.calls.forConnection(),
      onHello: (c) => {
        registry.bind(c);
        engine.attach(c.caller!.sessionId);
        // A held agent that (re)connects is told so at once, after its hello's answer.
        const agent = c.caller!.agent;
        engine.whenDurable(
          () =>
            process.nextTick(() => {
              const notice = engine.controlNotice(agent);
              if (notice && c.caller) c.notify('control', notice);
            }),
          () => undefined,
        );
      },
      onHelloUndone: (c) => {
        registry.remove(c);
        registry.add(c);
        engine.detach(c.caller!.sessionId);
      },
      onClose: (c) => {
        registry.remove(c);
        if (c.caller) engine.detach(c.caller.sessionId);
      },
    });
    registry.add(session);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.peerLookup.stop();
    for (const c of this.d.registry.all) c.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (this.path && process.platform !== 'win32' && existsSync(this.path)) {
      try {
        unlinkSync(this.path);
      } catch {
        /* already gone */
      }
    }
  }
}
