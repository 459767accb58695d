import type Database from 'better-sqlite3';
import type { RequestRecord } from '../../shared/domain';
import { hubCopy } from '../../shared/hub-copy';
import type { HubEventKind, OutboxEntry } from '../../shared/hub-protocol';
import type { RuleOffer } from '../../shared/hub-rule-offers';
import { WAITING_SQL } from './waiting-sql';

/** What a joined machine keeps for its hub link (migration 015): its outbox and decisions. */
export class HubOutboxRepository {
  constructor(private readonly db: Database.Database) {}

  /**
   * Appends one entry and notes the status published, in one transaction. `offers`: the rules
   * the machine offers with a request that asks (migration 023). What is kept is the hub's
   * copy, secrets masked (shared/hub-copy.ts): every entry passes here, so none leaves the
   * machine unmasked, and the outbox on disk holds no secret either.
   */
  enqueue(kind: HubEventKind, request: RequestRecord, now: number, offers?: RuleOffer[]): void {
    const copy = hubCopy(request, offers);
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO hub_outbox (kind, request_id, body, created_at, offers) VALUES (?, ?, ?, ?, ?)',
        )
        .run(
          kind,
          request.requestId,
          JSON.stringify(copy.request),
          now,
          copy.offers ? JSON.stringify(copy.offers) : null,
        );
      this.db
        .prepare(
          'INSERT INTO hub_published (request_id, status) VALUES (?, ?) ON CONFLICT (request_id) DO UPDATE SET status = excluded.status',
        )
        .run(request.requestId, request.status);
    })();
  }

  /** True when the request was published to the hub (its outcomes follow it there). */
  published(requestId: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM hub_published WHERE request_id = ?').get(requestId) !==
      undefined
    );
  }

  /**
   * The waiting requests the hub shows too: published, and their asking delivered (no longer
   * in the outbox). At most `limit`, newest first.
   */
  waitingShownOnHub(limit = 1000): string[] {
    const rows = this.db
      .prepare(
        `SELECT r.request_id AS requestId FROM requests r JOIN hub_published p USING (request_id)
         WHERE r.${WAITING_SQL}
           AND r.request_id NOT IN (SELECT request_id FROM hub_outbox WHERE kind = 'request.asked')
         ORDER BY r.created_at DESC LIMIT ?`,
      )
      .all(limit) as { requestId: string }[];
    return rows.map((r) => r.requestId);
  }

  /** The oldest entries after `afterSeq`, at most `limit`. */
  next(afterSeq: number, limit: number): OutboxEntry[] {
    const rows = this.db
      .prepare('SELECT seq, kind, body, offers FROM hub_outbox WHERE seq > ? ORDER BY seq LIMIT ?')
      .all(afterSeq, limit) as {
      seq: number;
      kind: HubEventKind;
      body: string;
      offers: string | null;
    }[];
    return rows.map((r) => ({
      seq: r.seq,
      kind: r.kind,
      request: JSON.parse(r.body) as RequestRecord,
      ...(r.offers !== null ? { offers: JSON.parse(r.offers) as RuleOffer[] } : {}),
    }));
  }

  /** Drops what the hub acknowledged. */
  acknowledged(seq: number): void {
    this.db.prepare('DELETE FROM hub_outbox WHERE seq <= ?').run(seq);
  }

  size(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM hub_outbox').get() as { n: number }).n;
  }

  /**
   * Requests whose publishing a crash may have cut short (the outbox is written just after the
   * engine's commit): asked since `since` and never published, or published with a status
   * that changed since. Their ids, oldest first; the caller publishes their current state.
   */
  owed(since: number): { requestId: string; published: boolean }[] {
    const rows = this.db
      .prepare(
        `SELECT r.request_id AS requestId, p.status AS publishedStatus FROM requests r
         LEFT JOIN hub_published p ON p.request_id = r.request_id
         WHERE r.tier = 'ask' AND r.created_at >= ? AND r.decided_by IS NOT 'grant' AND r.decided_by IS NOT 'rule'
           AND (p.request_id IS NULL OR p.status != r.status)
           AND (p.request_id IS NOT NULL OR r.status IN ('pending', 'timed_out') OR r.decided_by = 'human' OR r.status IN ('cancelled'))
         ORDER BY r.created_at, r.request_id`,
      )
      .all(since) as { requestId: string; publishedStatus: string | null }[];
    return rows.map((r) => ({ requestId: r.requestId, published: r.publishedStatus !== null }));
  }

  /** What became of a hub decision here, if it came before. */
  decision(decisionId: string): { outcome: 'applied' | 'refused'; detail?: string } | undefined {
    const row = this.db
      .prepare('SELECT outcome, detail FROM hub_decisions WHERE decision_id = ?')
      .get(decisionId) as { outcome: 'applied' | 'refused'; detail: string | null } | undefined;
    return row
      ? { outcome: row.outcome, ...(row.detail ? { detail: row.detail } : {}) }
      : undefined;
  }

  recordDecision(
    d: { decisionId: string; requestId: string; outcome: 'applied' | 'refused'; detail?: string },
    now: number,
  ): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO hub_decisions (decision_id, request_id, outcome, detail, at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(d.decisionId, d.requestId, d.outcome, d.detail ?? null, now);
  }

  /** Forgets the link's state (`gatehouse hub leave`): a new join starts clean. */
  clear(): void {
    this.db.exec('DELETE FROM hub_outbox; DELETE FROM hub_published;');
  }
}
