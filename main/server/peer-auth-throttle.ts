import type { Socket } from 'node:net';
import { AuthLimiter } from './auth-limiter';
import type { PeerProcessLookup } from './peer-process';

/** A connection trying `auth`, as the throttle sees it. */
export interface AuthAttempt {
  connectionId: number;
  socket: Socket;
}

export type AuthAdmission = { compare: true } | { compare: false; retryAfterSeconds: number };

/** Peers' buckets kept at most; full ones (no recent failure) are dropped first. */
const MAX_PEERS = 1024;

/**
 * Failed `auth` attempts, limited so that one client's guesses never lock out another
 * (an auth flood made the person's `gatehouse status` hang on -32004).
 *
 * Normally every attempt is compared, and each failure drains a shared bucket (sustained
 * `ratePerSecond`, `burst`) as before. Once that bucket is empty a flood is under way, and each
 * attempt is judged by its own peer's bucket instead: the peer is the process at the other end
 * of the socket (see {@link PeerProcessLookup}), or the connection itself where that cannot be
 * told. The flooding process drains its own bucket and gets -32004 without its token being
 * compared; the person's CLI, whose bucket is full, is compared at once. The admin token is
 * 256 random bits: the limits keep floods from costing CPU and audit space, not from guessing.
 */
export class PeerAuthThrottle {
  private readonly shared: AuthLimiter;
  private readonly peers = new Map<string, AuthLimiter>();
  private readonly peerKeys = new WeakMap<Socket, Promise<string>>();
  private throttled = 0;
  private lastThrottleReport = -Infinity;

  constructor(
    private readonly o: {
      ratePerSecond: number;
      burst: number;
      lookup: PeerProcessLookup;
      now?: () => number;
    },
  ) {
    this.shared = new AuthLimiter({
      ratePerSecond: o.ratePerSecond,
      burst: o.burst,
      now: o.now,
    });
  }

  /**
   * Whether this attempt's token may be compared now: at once while no flood is under way,
   * else once its peer is known, by that peer's own bucket.
   */
  admit(a: AuthAttempt): AuthAdmission | Promise<AuthAdmission> {
    if (this.shared.mayAttempt()) return { compare: true };
    return this.peerKey(a).then((key) => {
      const bucket = this.bucket(key);
      return bucket.mayAttempt()
        ? { compare: true }
        : { compare: false, retryAfterSeconds: bucket.retryAfterSeconds() };
    });
  }

  /**
   * A compared attempt failed: it counts against everyone's bucket and, once its peer is
   * known, against the peer's. The caller answers only after that: the client waits for its
   * answer, so its connection is still open to be looked up (a flooder that closed first
   * would count as a new peer every time).
   */
  async failed(a: AuthAttempt): Promise<void> {
    this.shared.failed();
    this.bucket(await this.peerKey(a)).failed();
  }

  /**
   * Counts an attempt refused without comparing; returns how many to audit now (one entry a
   * second at most, so a flood cannot grow the audit log without bound), or 0.
   */
  throttledAttempt(): number {
    this.throttled++;
    const now = this.o.now ? this.o.now() : Date.now();
    if (now - this.lastThrottleReport < 1000) return 0;
    this.lastThrottleReport = now;
    const n = this.throttled;
    this.throttled = 0;
    return n;
  }

  /** `pid:N` for the peer process, else `connection:N`; looked up once per connection. */
  peerKey(a: AuthAttempt): Promise<string> {
    let key = this.peerKeys.get(a.socket);
    if (!key) {
      key = this.o.lookup
        .pidOf(a.socket)
        .then((pid) => (pid === undefined ? `connection:${a.connectionId}` : `pid:${pid}`));
      this.peerKeys.set(a.socket, key);
    }
    return key;
  }

  private bucket(key: string): AuthLimiter {
    let bucket = this.peers.get(key);
    if (!bucket) {
      if (this.peers.size >= MAX_PEERS) this.forgetRecovered();
      bucket = new AuthLimiter({
        ratePerSecond: this.o.ratePerSecond,
        burst: this.o.burst,
        now: this.o.now,
      });
      this.peers.set(key, bucket);
    }
    return bucket;
  }

  /** Drops the buckets that have refilled (a new one is the same); the oldest if none has. */
  private forgetRecovered(): void {
    for (const [key, bucket] of this.peers) if (bucket.isFull()) this.peers.delete(key);
    if (this.peers.size >= MAX_PEERS) {
      const oldest = this.peers.keys().next().value;
      if (oldest !== undefined) this.peers.delete(oldest);
    }
  }
}
