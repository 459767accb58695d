import type { Clock, TimerHandle } from '../../shared/clock';
import type { NotificationItem } from './types';

interface Window {
  held: NotificationItem[];
  timer: TimerHandle;
}

/**
 * At most one notification per session per window. The first item of a session passes and
 * opens a window; later items of that session are held and released together when the window
 * closes (which opens the next one), so a looping agent costs the person one alert per window
 * and nothing is lost. Items without a session are never held.
 */
export class SessionCooldown {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: () => number,
    private readonly release: (items: NotificationItem[]) => void,
  ) {}

  /** True when the item may go now; false when it was held for the window's end. */
  admit(item: NotificationItem): boolean {
    const key = item.sessionId;
    if (key === undefined || this.windowMs() <= 0) return true;
    const open = this.windows.get(key);
    if (open) {
      open.held.push(item);
      return false;
    }
    this.open(key);
    return true;
  }

  /**
   * An item that went out without asking (an urgent one) counts as the session's alert: it opens
   * the window when none is open, so what follows it is held as usual.
   */
  note(item: NotificationItem): void {
    const key = item.sessionId;
    if (key === undefined || this.windowMs() <= 0 || this.windows.has(key)) return;
    this.open(key);
  }

  /** Forgets held items that no longer matter (their request was decided). */
  drop(matches: (item: NotificationItem) => boolean): void {
    for (const w of this.windows.values()) w.held = w.held.filter((i) => !matches(i));
  }

  heldCount(): number {
    let n = 0;
    for (const w of this.windows.values()) n += w.held.length;
    return n;
  }

  stop(): void {
    for (const w of this.windows.values()) w.timer.cancel();
    this.windows.clear();
  }

  private open(key: string): void {
    const timer = this.clock.setTimer(this.windowMs(), () => this.close(key));
    this.windows.set(key, { held: [], timer });
  }

  private close(key: string): void {
    const w = this.windows.get(key);
    this.windows.delete(key);
    if (!w || w.held.length === 0) return;
    // What was held goes out now, and that counts as this session's alert for the next window.
    if (this.windowMs() > 0) this.open(key);
    this.release(w.held);
  }
}
