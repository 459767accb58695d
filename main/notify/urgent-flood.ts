import type { Clock, TimerHandle } from '../../shared/clock';
import type { NotificationItem } from './types';

/** How many urgent notifications one session may send at once within {@link URGENT_WINDOW_MS}. */
export const URGENT_PER_WINDOW = 5;
export const URGENT_WINDOW_MS = 60_000;

/** An item that must not wait: `high` urgency, or a request whose rule rates it critical. */
export const isUrgent = (item: NotificationItem): boolean =>
  item.urgency === 'high' || item.risk === 'critical';

interface SessionFlood {
  /** When each of the last urgent items of the session went out (oldest first). */
  sent: number[];
  held: NotificationItem[];
  timer: TimerHandle | undefined;
}

/**
 * Urgent items skip the per-session cooldown and batching, so the person learns of them at
 * once; a looping agent that marks everything urgent still cannot flood: past
 * {@link URGENT_PER_WINDOW} in {@link URGENT_WINDOW_MS} from one session, further urgent items
 * are held and released as one digest when the oldest of those sends leaves the window.
 * Items without a session pass.
 */
export class UrgentFloodLimit {
  private readonly sessions = new Map<string, SessionFlood>();

  constructor(
    private readonly clock: Clock,
    private readonly release: (items: NotificationItem[]) => void,
  ) {}

  /** True when the urgent item may go now; false when it was held for the flood digest. */
  admit(item: NotificationItem): boolean {
    const key = item.sessionId;
    if (key === undefined) return true;
    const now = this.clock.now();
    const s = this.sessions.get(key) ?? { sent: [], held: [], timer: undefined };
    this.sessions.set(key, s);
    s.sent = s.sent.filter((t) => now - t < URGENT_WINDOW_MS);
    if (s.held.length === 0 && s.sent.length < URGENT_PER_WINDOW) {
      s.sent.push(now);
      return true;
    }
    s.held.push(item);
    s.timer ??= this.clock.setTimer(Math.max(0, (s.sent[0] ?? now) + URGENT_WINDOW_MS - now), () =>
      this.flush(key),
    );
    return false;
  }

  drop(matches: (item: NotificationItem) => boolean): void {
    for (const s of this.sessions.values()) s.held = s.held.filter((i) => !matches(i));
  }

  heldCount(): number {
    let n = 0;
    for (const s of this.sessions.values()) n += s.held.length;
    return n;
  }

  stop(): void {
    for (const s of this.sessions.values()) s.timer?.cancel();
    this.sessions.clear();
  }

  private flush(key: string): void {
    const s = this.sessions.get(key);
    if (!s) return;
    s.timer = undefined;
    const held = s.held;
    s.held = [];
    const now = this.clock.now();
    s.sent = s.sent.filter((t) => now - t < URGENT_WINDOW_MS);
    if (held.length === 0) {
      if (s.sent.length === 0) this.sessions.delete(key);
      return;
    }
    // The digest is one more send of the session's allowance.
    s.sent.push(now);
    this.release(held);
  }
}
