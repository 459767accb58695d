import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Past this share of its time busy, the event loop counts as serving calls. */
export const BUSY_UTILIZATION = 0.25;

/**
 * How busy the daemon's event loop has been between two looks: its utilisation (the share of
 * the time it ran code rather than waited for I/O), from `performance.eventLoopUtilization`.
 *
 * Why not count writes: the background housekeeping (the WAL's truncation, the audit chain's
 * sealing) waited for "no writes" to find a quiet moment, and calls that write nothing
 * (`classify`, `check`) then looked like no activity at all: a 200 ms WAL truncation landed
 * in the middle of a `classify` flood. Utilisation sees every call, whatever it writes.
 */
export class LoopActivity {
  private last: EventLoopUtilization = performance.eventLoopUtilization();

  /** The share of time (0-1) the loop was busy since the previous call (or construction). */
  utilizationSinceLast(): number {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, this.last);
    this.last = now;
    return delta.utilization;
  }

  /** Whether the loop was busy past {@link BUSY_UTILIZATION} since the previous look. */
  busySinceLast(): boolean {
    return this.utilizationSinceLast() > BUSY_UTILIZATION;
  }
}
