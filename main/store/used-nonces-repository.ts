import type Database from 'better-sqlite3';

/**
 * The nonces of decision tokens that have decided (table of migration 009): the store side of
 * main/remote/used-nonces.ts. Synchronous, so a `consume` inside the engine's unit of work
 * commits or rolls back with the decision it allowed: a token is spent exactly when its
 * decision is stored.
 */
export class UsedNoncesRepository {
  private readonly insert: Database.Statement<[string, string, number, number]>;
  private readonly lookup: Database.Statement<[string], { used_at: number }>;
  private readonly prune: Database.Statement<[number]>;

  constructor(db: Database.Database) {
    this.insert = db.prepare(
      `INSERT INTO used_link_nonces (nonce, request_id, used_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(nonce) DO NOTHING`,
    );
    this.lookup = db.prepare('SELECT used_at FROM used_link_nonces WHERE nonce = ?');
    this.prune = db.prepare('DELETE FROM used_link_nonces WHERE expires_at <= ?');
  }

  /** Records the nonce as used; false when it already was (a replay). */
  consume(nonce: string, requestId: string, now: number, expiresAt: number): boolean {
    return this.insert.run(nonce, requestId, now, expiresAt).changes === 1;
  }

  /** When the nonce was used, or undefined when it was not. */
  usedAt(nonce: string): number | undefined {
    return this.lookup.get(nonce)?.used_at;
  }

  /**
   * Forgets nonces whose tokens have expired: an expired token is refused on its expiry
   * before its nonce is looked at, so the row has nothing left to guard. Returns the count.
   */
  pruneExpired(now: number): number {
    return this.prune.run(now).changes;
  }
}
