import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Debian's PostgreSQL 15 binaries (the `postgresql` package the test set-up installs). */
const BIN = '/usr/lib/postgresql/15/bin';
/** PostgreSQL refuses to run as root: the cluster belongs to this unprivileged user. */
const OWNER = 'postgres';

function asOwner(program: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', OWNER, '--', join(BIN, program), ...args]]
    : [join(BIN, program), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A real PostgreSQL server in a temporary folder, on a free loopback port, trusting local
 * connections (a test cluster). `stop()` always removes the folder; `restart()` stops it
 * (fast shutdown, every connection cut) and starts it again on the same port and data.
 */
export class TestPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** `postgres://postgres@127.0.0.1:PORT/DB`; the default database is `postgres`. */
  url(database = 'postgres'): string {
    return `postgres://${OWNER}@127.0.0.1:${this.port}/${database}`;
  }

  static async start(): Promise<TestPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-'));
    // The owner must be able to reach its data folder through the temp folder.
    chmodSync(dir, 0o755);
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', OWNER], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', OWNER], { encoding: 'utf8' }).trim());
      chownSync(dir, uid, gid);
    }
    const pg = new TestPostgres(dir, await freePort());
    asOwner('initdb', ['-D', pg.dataDir, '-A', 'trust', '-U', OWNER, '--no-sync', '-E', 'UTF8']);
    pg.startServer();
    return pg;
  }

  private startServer(): void {
    const options = [
      `-p ${this.port}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${this.dir}'`,
      '-c fsync=off',
      '-c max_connections=200',
    ].join(' ');
    asOwner('pg_ctl', [
      '-D',
      this.dataDir,
      '-o',
      options,
      '-l',
      join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }

  /** Creates a fresh database (one per test, so tests share the server but not data). */
  createDatabase(name: string): string {
    asOwner('psql', ['-h', this.dir, '-p', String(this.port), '-c', `CREATE DATABASE "${name}"`]);
    return this.url(name);
  }

  /** Stops the server at once (every connection cut) and starts it again. */
  restart(): void {
    asOwner('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
    this.startServer();
  }

  stop(): void {
    try {
      asOwner('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already stopped (a test stopped it, or it never started): the folder still goes.
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
