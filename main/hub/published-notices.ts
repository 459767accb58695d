import { HUB_CHANNEL, type HubNotice } from './hub-events';
import type { Sql } from './store/sql';

/** How long a replica gathers publishes before it tells the others (the dashboards' delay). */
export const PUBLISHED_NOTICE_WINDOW_MS = 100;

/**
 * The "a machine published" notice, one per window per replica, sent after the publishes'
 * commits rather than in each one. Why: a transaction that NOTIFYs takes a database-wide lock
 * at commit, so a notice in every publish made every publish commit (and wait for its WAL
 * flush) one after another; hub-scale's filings per second fell by about ten times. The notice
 * only makes the team dashboards reload what they show, so a replica that dies before sending
 * it costs a browser an update, not the truth (the next notice or reconnect reloads all).
 */
export class PublishedNotices {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly d: { db: Sql; windowMs?: number; onError?: (e: unknown) => void }) {}

  /** A publish committed: the notice goes out within the window. */
  mark(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.d.windowMs ?? PUBLISHED_NOTICE_WINDOW_MS);
    this.timer.unref();
  }

  /** Sends the pending notice now (and at stop). */
  async flush(): Promise<void> {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const notice: HubNotice = { kind: 'published' };
    await this.d.db
      .query('SELECT pg_notify($1, $2)', [HUB_CHANNEL, JSON.stringify(notice)])
      .catch((e: unknown) => this.d.onError?.(e));
  }
}
