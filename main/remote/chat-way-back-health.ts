import { iso } from '../../shared/clock';
import type { ChannelHealth, ChannelWayBack } from '../../shared/protocol/admin-methods';
import type { AttachedNotifier } from '../server/attached-services';

/**
 * What a chat app's way back (Telegram's poll, Slack's Socket Mode, Discord's Gateway) says of
 * itself: connected, or not and why. Only a failure counts: a connection still being opened
 * reports nothing, and Discord's one routine drop that the next connection mends neither.
 */
export type WayBackReport = { connected: true } | { connected: false; error?: string };

/**
 * One chat app's way back as `status` shows it: connected or not, and since when. `since` is
 * when the connection last came up or went down, not every failed retry; a failure's error is
 * the latest one.
 */
export class WayBackTracker {
  private state: ChannelWayBack | undefined;

  constructor(private readonly now: () => number) {}

  /** A way back starts: not connected yet, with no failure to show. */
  starting(): void {
    this.state = { connected: false, since: iso(this.now()) };
  }

  report(s: WayBackReport): void {
    const since =
      this.state && this.state.connected === s.connected ? this.state.since : iso(this.now());
    this.state = s.connected
      ? { connected: true, since }
      : { connected: false, since, ...(s.error ? { error: s.error } : {}) };
  }

  /** No way back runs (the channel is off, paused or has no token). */
  clear(): void {
    this.state = undefined;
  }

  current(): ChannelWayBack | undefined {
    return this.state;
  }
}

/**
 * The notifier as `status` and the dashboard see it, with each chat app's way back (the
 * connection its presses come over) added to that channel's health: a channel can post and
 * still not hear its buttons (a revoked token, a dropped connection). A way back that failed
 * (it says why) makes the channel `failing` with that error until it is connected again.
 */
export function withWayBack(
  notifier: AttachedNotifier,
  wayBacks: Record<string, () => ChannelWayBack | undefined>,
): AttachedNotifier {
  return {
    health: (): ChannelHealth[] =>
      notifier.health().map((h) => {
        const wayBack = wayBacks[h.channel]?.();
        if (!wayBack || !h.enabled) return h;
        return !wayBack.connected && wayBack.error
          ? {
              ...h,
              state: 'failing',
              lastErrorAt: wayBack.since,
              lastError: wayBack.error,
              wayBack,
            }
          : { ...h, wayBack };
      }),
    test: (channel) => notifier.test(channel),
  };
}
