import type { Clock, TimerHandle } from '../../shared/clock';

/** A clock that only moves when a test says so; timers fire in time order on `advance`. */
export class FakeClock implements Clock {
  private timers: { at: number; seq: number; fn: () => void; live: boolean }[] = [];
  private seq = 0;

  constructor(private current = Date.parse('2026-01-05T09:00:00.000Z')) {}

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, live: true };
    this.timers.push(timer);
    return { cancel: () => void (timer.live = false) };
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.timers
        .filter((t) => t.live && t.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      due.live = false;
      this.current = due.at;
      due.fn();
    }
    this.timers = this.timers.filter((t) => t.live);
    this.current = target;
  }

  /** Sets the absolute time (only forwards), firing due timers. */
  set(ms: number): void {
    this.advance(Math.max(0, ms - this.current));
  }

  pendingTimers(): number {
    return this.timers.filter((t) => t.live).length;
  }
}
