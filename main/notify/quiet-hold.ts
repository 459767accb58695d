import type { Clock, TimerHandle } from '../../shared/clock';
import type { NotificationItem } from './types';

/**
 * Keeps what quiet hours held back and releases it as one digest when they end. The wake-up
 * time is re-asked at every check, so a changed setting or a daylight-saving shift only moves
 * the release, never loses it.
 */
export class QuietHold {
  private held: NotificationItem[] = [];
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    /** Whether it is quiet now and, if so, how long until it stops being quiet. */
    private readonly quietFor: () => number | undefined,
    private readonly release: (items: NotificationItem[]) => void,
  ) {}

  hold(item: NotificationItem): void {
    this.held.push(item);
    if (!this.timer) this.recheck();
  }

  /** Releases now if quiet hours are over, otherwise (re)arms the wake-up. */
  recheck(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.held.length === 0) return;
    const wait = this.quietFor();
    if (wait === undefined) {
      const items = this.held;
      this.held = [];
      this.release(items);
      return;
    }
    this.timer = this.clock.setTimer(wait, () => {
      this.timer = undefined;
      this.recheck();
    });
  }

  drop(matches: (item: NotificationItem) => boolean): void {
    this.held = this.held.filter((i) => !matches(i));
  }

  heldCount(): number {
    return this.held.length;
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.held = [];
  }
}
