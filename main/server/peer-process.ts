import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import type { Socket } from 'node:net';

/** How often `ss` may run at most: lookups asked for in between share the next run. */
const MIN_RUN_INTERVAL_MS = 200;

/**
 * The process at the other end of an accepted Unix socket connection, on Linux. Node has no
 * SO_PEERCRED, and /proc alone does not say which socket is connected to which; the kernel's
 * sock_diag does, and `ss -xp` (iproute2) reads it: each line gives a socket's inode, its
 * peer's inode and the processes holding it. The accepted socket's own inode comes from
 * /proc/self/fd; the peer is the process holding the socket whose peer inode is ours.
 *
 * `ss` runs in a child process (never on the event loop) and at most every 200 ms: every
 * lookup asked for meanwhile is answered from the same run. Undefined where it cannot tell
 * (another platform, no `ss`, the peer already gone).
 */
export class PeerProcessLookup {
  private waiting = new Map<number, ((pid: number | undefined) => void)[]>();
  private running = false;
  private lastRun = -Infinity;
  private timer?: NodeJS.Timeout | undefined;

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  pidOf(socket: Socket): Promise<number | undefined> {
    const inode = this.platform === 'linux' ? socketInode(socket) : undefined;
    if (inode === undefined) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const list = this.waiting.get(inode) ?? [];
      list.push(resolve);
      this.waiting.set(inode, list);
      this.plan();
    });
  }

  /** Stops a planned run; waiting lookups answer undefined. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.answer(new Map());
  }

  private plan(): void {
    if (this.running || this.timer) return;
    const wait = Math.max(0, this.lastRun + MIN_RUN_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, wait);
    this.timer.unref();
  }

  private run(): void {
    this.running = true;
    this.lastRun = Date.now();
    execFile(
      'ss',
      ['-xpnH'],
      { timeout: 2000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout: string) => {
        this.running = false;
        this.answer(error ? new Map() : peersByInode(stdout));
        if (this.waiting.size) this.plan();
      },
    );
  }

  private answer(byPeerInode: Map<number, number>): void {
    const waiting = this.waiting;
    this.waiting = new Map();
    for (const [inode, resolves] of waiting)
      for (const resolve of resolves) resolve(byPeerInode.get(inode));
  }
}

/** The inode of the socket's file descriptor (`socket:[N]` in /proc/self/fd), if known. */
function socketInode(socket: Socket): number | undefined {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return undefined;
  try {
    const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * From `ss -xpnH` output: for each socket's peer inode, the first process holding that socket.
 * A line ends `<inode> <peer address> <peer inode> users:(("name",pid=N,fd=F),…)`.
 */
export function peersByInode(text: string): Map<number, number> {
  const map = new Map<number, number>();
  for (const line of text.split('\n')) {
    const m = /\s\d+\s+\S+\s+(\d+)\s+users:\(\(.*?pid=(\d+)/.exec(line);
    if (m) map.set(Number(m[1]), Number(m[2]));
  }
  return map;
}
