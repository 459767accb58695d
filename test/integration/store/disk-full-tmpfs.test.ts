/**
 * A real full disk: the data folder on a 4 MiB and a 16 MiB tmpfs, filled by a
 * ballast file and ~150 requests a second. The WAL never outgrows what the disk holds; while
 * the disk is full, writes answer DISK_FULL and reads (`status`, `pending.list`) still answer;
 * once space is freed new requests are acknowledged within a second, with nothing that was
 * acknowledged lost and the database's integrity check ok, also after a restart. A `hello`
 * that could not be stored leaves its connection as before (-32010 for the next call): a
 * test of its own makes that hello fail every time.
 *
 * Needs root for `mount -t tmpfs` (the test machines run as root); it fails, never skips,
 * when the mount is refused.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  statfsSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RpcClient, RpcError } from '../../../clients/sdk/rpc-client';
import { TestDaemon } from '../../support/daemon';

let dir: string;
let mnt: string;
let d: TestDaemon | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-tmpfs-'));
  mnt = join(dir, 'mnt');
  mkdirSync(mnt);
});
afterEach(async () => {
  await d?.signal('SIGTERM');
  d = undefined;
  try {
    execFileSync('umount', [mnt]);
  } catch {
    /* not mounted */
  }
  rmSync(dir, { recursive: true, force: true });
});

function mountTmpfs(size: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mnt]);
}

const freeBytes = (): number => {
  const s = statfsSync(mnt);
  return s.bavail * s.bsize;
};

/** Fills the disk but `leave` bytes with a ballast file; returns its path. */
function ballast(leave: number): string {
  const file = join(mnt, 'ballast');
  writeFileSync(file, Buffer.alloc(Math.max(0, freeBytes() - leave)));
  return file;
}

const walSize = (home: string): number => {
  const wal = join(home, 'gatehouse.db-wal');
  return existsSync(wal) ? statSync(wal).size : 0;
};

/** ~150 requests a second from six agents until stopped: what was acked, what failed. */
async function load(socketPath: string) {
  const agents = await Promise.all(
    [0, 1, 2, 3, 4, 5].map(async (n) => {
      const c = new RpcClient(socketPath);
      await c.connect();
      await c.call('hello', { agent: `loader-${n}` }).catch((e: unknown) => {
        throw new Error(`loader hello failed with ${freeBytes()} bytes free: ${String(e)}`);
      });
      return c;
    }),
  );
  const state = { acked: [] as string[], diskFull: 0, other: [] as string[], lastAckAt: 0 };
  let i = 0;
  const send = (c: RpcClient) =>
    c
      .call<{ requestId: string }>('request', {
        action: 'git_push',
        description: `push ${i++}`,
        wait: false,
        context: { note: 'n'.repeat(800) },
      })
      .then(
        (r) => {
          state.acked.push(r.requestId);
          state.lastAckAt = performance.now();
        },
        (e: unknown) => {
          if (e instanceof RpcError && (e.data as { reason?: string })?.reason === 'DISK_FULL')
            state.diskFull++;
          else state.other.push(String(e));
        },
      );
  // 6 agents × one request per 40 ms = 150 a second (each stays under its session's limit of
  // 1,000 waiting requests).
  const timer = setInterval(() => agents.forEach((c) => void send(c)), 40);
  return {
    state,
    async stop() {
      clearInterval(timer);
      await new Promise((r) => setTimeout(r, 300));
      for (const c of agents) c.close();
    },
  };
}

const until = async (what: () => boolean, ms: number, label: string) => {
  const end = performance.now() + ms;
  while (!what()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Time from now until a newly sent request is acknowledged. */
async function msToFirstAck(socketPath: string): Promise<number> {
  const c = new RpcClient(socketPath);
  await c.connect();
  const started = performance.now();
  for (;;) {
    try {
      await c.call('hello', { agent: 'prober' });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
      c.close();
      await c.connect();
    }
  }
  for (;;) {
    try {
      await c.call('request', { action: 'git_push', description: 'probe', wait: false });
      c.close();
      return performance.now() - started;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

async function fullDiskRun(size: string, leave: number) {
  mountTmpfs(size);
  const home = join(mnt, 'home');
  d = await TestDaemon.start(
    { GATEHOUSE_HOME: home, GATEHOUSE_SOCKET: join(dir, 'run', 'agent.sock') },
    ['--no-dashboard'],
  );
  const daemon = d;
  const ballastFile = ballast(leave);
  const l = await load(daemon.socketPath);
  await until(() => l.state.diskFull > 20, 60_000, 'the disk to fill');
  const diskSize = statfsSync(mnt).blocks * statfsSync(mnt).bsize;
  // Full: the WAL holds a small part of the disk; reads answer at once.
  expect(walSize(home)).toBeLessThan(diskSize / 4);
  const admin = await daemon.admin();
  const readStarted = performance.now();
  const status = await admin.call('status', {});
  const pending = await admin.call('pending.list', { limit: 10 });
  expect(performance.now() - readStarted).toBeLessThan(1000);
  expect(status.pending).toBeGreaterThan(0);
  expect(pending.requests.length).toBe(10);

  // Space freed: new requests are acknowledged within a second.
  unlinkSync(ballastFile);
  expect(await msToFirstAck(daemon.socketPath)).toBeLessThan(1000);
  const ackedBefore = l.state.acked.length;
  await until(() => l.state.acked.length > ackedBefore + 100, 10_000, 'acks after recovery');
  return { home, daemon, admin, l, diskSize };
}

/** Nothing acknowledged is missing, and SQLite's integrity check is ok. */
function checkStored(home: string, acked: string[]): void {
  const db = new Database(join(home, 'gatehouse.db'), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const stored = new Set(
      (db.prepare('SELECT request_id FROM requests').all() as { request_id: string }[]).map(
        (r) => r.request_id,
      ),
    );
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
  } finally {
    db.close();
  }
}

describe('a full disk, for real', () => {
  it('4 MiB: fills, keeps reading, recovers within a second once space is freed', async () => {
    const { home, daemon, admin, l } = await fullDiskRun('4m', 2560 * 1024);
    await l.stop();
    admin.close();
    expect(l.state.other).toEqual([]);
    expect(await daemon.signal('SIGTERM')).toBe(0);
    checkStored(home, l.state.acked);
    // And after a restart, it still writes.
    await daemon.launch(['--no-dashboard']);
    expect(await msToFirstAck(daemon.socketPath)).toBeLessThan(1000);
  });

  it('16 MiB: after recovery the WAL stays bounded and does not fill the disk again', async () => {
    const { home, daemon, admin, l, diskSize } = await fullDiskRun('16m', 2 * 1024 * 1024);
    const fullBefore = l.state.diskFull;
    let largestWal = 0;
    const started = performance.now();
    while (performance.now() - started < 12_000) {
      largestWal = Math.max(largestWal, walSize(home));
      await new Promise((r) => setTimeout(r, 50));
    }
    await l.stop();
    admin.close();
    expect(l.state.diskFull).toBe(fullBefore);
    expect(largestWal).toBeLessThan(diskSize / 4);
    expect(l.state.other).toEqual([]);
    expect(await daemon.signal('SIGTERM')).toBe(0);
    checkStored(home, l.state.acked);
  });

  it('a hello that cannot be stored answers DISK_FULL, and the next call on it gets -32010', async () => {
    mountTmpfs('4m');
    const home = join(mnt, 'home');
    d = await TestDaemon.start(
      { GATEHOUSE_HOME: home, GATEHOUSE_SOCKET: join(dir, 'run', 'agent.sock') },
      ['--no-dashboard'],
    );
    const ballastFile = ballast(0);
    // Labels larger than every byte SQLite could still write to: the free space and the WAL
    // it may reuse from its start. Storing this session cannot succeed, whatever the daemon
    // checkpointed before (under the 1 MiB frame limit).
    const labels = { note: 'l'.repeat(900 * 1024) };
    expect(freeBytes() + walSize(home)).toBeLessThan(labels.note.length);
    const late = new RpcClient(d.socketPath);
    await late.connect();
    const hello = await late.call('hello', { agent: 'late', labels }).catch((e: unknown) => e);
    expect(hello).toBeInstanceOf(RpcError);
    expect((hello as RpcError).data).toEqual({ reason: 'DISK_FULL' });
    // No session was made: the connection is as it was before hello.
    const next = await late.call('classify', { action: 'read_file' }).catch((e: unknown) => e);
    expect(next).toBeInstanceOf(RpcError);
    expect((next as RpcError).code).toBe(-32010);
    // With room again, the same connection says hello and is served.
    unlinkSync(ballastFile);
    await late.call('hello', { agent: 'late' });
    const classified = await late.call<{ tier: string }>('classify', { action: 'read_file' });
    expect(classified.tier).toBeDefined();
    late.close();
  });
});
