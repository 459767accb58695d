import type { Clock, TimerHandle } from '../../shared/clock';
import type { NotificationItem } from './types';

/**
 * Collects items for an interval that starts with the first one, then releases them all as
 * one digest.
 */
export class Batcher {
  private buffer: NotificationItem[] = [];
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly release: (items: NotificationItem[]) => void,
  ) {}

  add(items: readonly NotificationItem[], intervalMs: number): void {
    this.buffer.push(...items);
    this.timer ??= this.clock.setTimer(intervalMs, () => this.flush());
  }

  flush(): void {
    this.timer?.cancel();
    this.timer = undefined;
    const items = this.buffer;
    this.buffer = [];
    if (items.length) this.release(items);
  }

  drop(matches: (item: NotificationItem) => boolean): void {
    this.buffer = this.buffer.filter((i) => !matches(i));
  }

  heldCount(): number {
    return this.buffer.length;
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.buffer = [];
  }
}
