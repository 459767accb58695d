import { chmodSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { basename, dirname } from 'node:path';
import type { Engine } from '../engine/engine';
import type { AdminService } from './admin-port';
import type { ConnectionRegistry } from './connection-registry';
import { RpcConnection } from './rpc-connection';

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
  /** The directories that are Gatehouse's own and get mode 0700 (never e.g. /tmp). */
  ownedDirs: string[];
  rateLimitPerSecond?: number;
}

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
  private server?: Server;
  private path?: string;

  constructor(private readonly d: AgentSocketDeps) {}

  async listen(path: string): Promise<void> {
    const isPipe = process.platform === 'win32' && path.startsWith('\\\\');
    if (!isPipe) {
      const dir = dirname(path);
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (this.d.ownedDirs.includes(dir) || basename(dir) === 'gatehouse') chmodSync(dir, 0o700);
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
        server.listen(path, () => {
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

  private accept(socket: Socket): void {
    const { registry, engine } = this.d;
    const conn = new RpcConnection(socket, {
      engine,
      admin: this.d.admin,
      adminToken: this.d.adminToken,
      rateLimitPerSecond: this.d.rateLimitPerSecond ?? 20_000,
      onHello: (c) => {
        registry.bind(c);
        engine.sessions.attach(c.caller!.sessionId);
      },
      onClose: (c) => {
        registry.remove(c);
        if (c.caller) engine.sessions.detach(c.caller.sessionId);
      },
    });
    registry.add(conn);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const c of this.d.registry.all) c.socket.destroy();
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
