import type { RequestRecord } from '../../shared/domain';
import type { Clock, TimerHandle } from '../../shared/clock';

/** One timer per undecided request, firing `afterMs` after the request was filed. */
export class ReminderScheduler {
  private readonly timers = new Map<string, TimerHandle>();

  constructor(
    private readonly clock: Clock,
    private readonly onDue: (request: RequestRecord) => void,
  ) {}

  schedule(request: RequestRecord, afterMs: number): void {
    this.cancel(request.requestId);
    const due = Date.parse(request.createdAt) + afterMs;
    const wait = Number.isFinite(due) ? Math.max(0, due - this.clock.now()) : afterMs;
    const timer = this.clock.setTimer(wait, () => {
      this.timers.delete(request.requestId);
      this.onDue(request);
    });
    this.timers.set(request.requestId, timer);
  }

  cancel(requestId: string): void {
    this.timers.get(requestId)?.cancel();
    this.timers.delete(requestId);
  }

  scheduledCount(): number {
    return this.timers.size;
  }

  stop(): void {
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }
}
