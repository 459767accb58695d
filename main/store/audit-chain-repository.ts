import type Database from 'better-sqlite3';
import type { AuditEvent } from '../../shared/domain';
import { AuditRepository, highestAuditSeq } from './audit-repository';
import { AuditTrail } from './audit-trail';
import { RequestsRepository } from './requests-repository';

/** A link of the audit chain: an entry's number and the hash that chains it. */
export interface ChainLink {
  seq: number;
  hash: Buffer;
}

/** The chain's head at a moment, signed with the daemon's key. */
export interface ChainCheckpoint {
  seq: number;
  /** The chain hash at `seq`, hex. */
  hash: string;
  /** When it was signed. */
  at: number;
  /** When its newest entry was written: retention prunes a segment once this is old. */
  throughAt: number;
  /** Entries chained from the chain's start up to `seq`. */
  entries: number;
  publicKey: string;
  signature: string;
}

/** Where the chain starts after retention (a checkpoint), or nothing: the very start. */
export interface ChainBase {
  seq: number;
  hash: string;
}

type Raw = Record<string, unknown>;

const toCheckpoint = (r: Raw): ChainCheckpoint => ({
  seq: r.seq as number,
  hash: r.hash as string,
  at: r.at as number,
  throughAt: r.through_at as number,
  entries: r.entries as number,
  publicKey: r.public_key as string,
  signature: r.signature as string,
});

/**
 * The SQL of the audit chain (migration 020): reading the trail in order, as its readers see
 * it, and the links, checkpoints and base that chain it.
 */
export class AuditChainRepository {
  private readonly trail: AuditTrail;
  private readonly insertLinkStmt;
  private readonly linksAfterStmt;
  private readonly headStmt;
  private readonly firstStmt;
  private readonly linkStmt;

  constructor(private readonly db: Database.Database) {
    // Read-only use: entriesAfter only reads, so these instances hand out no numbers.
    this.trail = new AuditTrail(new AuditRepository(db), new RequestsRepository(db));
    this.insertLinkStmt = db.prepare('INSERT INTO audit_chain (seq, hash) VALUES (?, ?)');
    this.linksAfterStmt = db.prepare(
      'SELECT seq, hash FROM audit_chain WHERE seq > ? ORDER BY seq LIMIT ?',
    );
    this.headStmt = db.prepare('SELECT seq, hash FROM audit_chain ORDER BY seq DESC LIMIT 1');
    this.firstStmt = db.prepare('SELECT seq, hash FROM audit_chain ORDER BY seq LIMIT 1');
    this.linkStmt = db.prepare('SELECT seq, hash FROM audit_chain WHERE seq = ?');
  }

  /** Up to `limit` entries of the trail after `afterSeq`, oldest first. */
  entriesAfter(afterSeq: number, limit: number): AuditEvent[] {
    return this.trail.entriesAfter(afterSeq, limit);
  }

  /** The highest entry number written so far (two index lookups): how busy the trail is. */
  newestSeq(): number {
    return highestAuditSeq(this.db);
  }

  linksAfter(afterSeq: number, limit: number): ChainLink[] {
    return this.linksAfterStmt.all(afterSeq, limit) as ChainLink[];
  }

  /** The newest link: where sealing goes on from. */
  head(): ChainLink | undefined {
    return this.headStmt.get() as ChainLink | undefined;
  }

  /** The oldest link still kept. */
  first(): ChainLink | undefined {
    return this.firstStmt.get() as ChainLink | undefined;
  }

  link(seq: number): ChainLink | undefined {
    return this.linkStmt.get(seq) as ChainLink | undefined;
  }

  /** Appends links in one transaction. */
  appendLinks(links: readonly ChainLink[]): void {
    this.db.transaction(() => {
      for (const l of links) this.insertLinkStmt.run(l.seq, l.hash);
    })();
  }

  /** How many links lie in (afterSeq, throughSeq]. */
  countLinks(afterSeq: number, throughSeq: number): number {
    return this.db
      .prepare('SELECT COUNT(*) FROM audit_chain WHERE seq > ? AND seq <= ?')
      .pluck()
      .get(afterSeq, throughSeq) as number;
  }

  addCheckpoint(c: ChainCheckpoint): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO audit_checkpoints
           (seq, hash, at, through_at, entries, public_key, signature)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(c.seq, c.hash, c.at, c.throughAt, c.entries, c.publicKey, c.signature);
  }

  /** Every checkpoint kept, oldest first. */
  checkpoints(): ChainCheckpoint[] {
    return (this.db.prepare('SELECT * FROM audit_checkpoints ORDER BY seq').all() as Raw[]).map(
      toCheckpoint,
    );
  }

  /** Up to `limit` checkpoints after `afterSeq`, oldest first (what the hub has not got yet). */
  checkpointsAfter(afterSeq: number, limit: number): ChainCheckpoint[] {
    return (
      this.db
        .prepare('SELECT * FROM audit_checkpoints WHERE seq > ? ORDER BY seq LIMIT ?')
        .all(afterSeq, limit) as Raw[]
    ).map(toCheckpoint);
  }

  latestCheckpoint(): ChainCheckpoint | undefined {
    const r = this.db.prepare('SELECT * FROM audit_checkpoints ORDER BY seq DESC LIMIT 1').get() as
      Raw | undefined;
    return r && toCheckpoint(r);
  }

  /** The newest checkpoint whose entries are all older than `at`: how far retention may prune. */
  checkpointThrough(at: number): ChainCheckpoint | undefined {
    const r = this.db
      .prepare('SELECT * FROM audit_checkpoints WHERE through_at < ? ORDER BY seq DESC LIMIT 1')
      .get(at) as Raw | undefined;
    return r && toCheckpoint(r);
  }

  base(): ChainBase | undefined {
    return this.db.prepare('SELECT seq, hash FROM audit_chain_base WHERE id = 1').get() as
      ChainBase | undefined;
  }

  /**
   * Moves the chain's start to a checkpoint, and drops the checkpoints before it. The links
   * at or below it go in small steps ({@link pruneLinks}); verify ignores them meanwhile.
   */
  moveBase(to: ChainCheckpoint): void {
    this.db.transaction(() => {
      this.db
        .prepare('INSERT OR REPLACE INTO audit_chain_base (id, seq, hash) VALUES (1, ?, ?)')
        .run(to.seq, to.hash);
      this.db.prepare('DELETE FROM audit_checkpoints WHERE seq < ?').run(to.seq);
    })();
  }

  /** Deletes up to `limit` links at or below `throughSeq`; how many went. */
  pruneLinks(throughSeq: number, limit: number): number {
    return this.db
      .prepare(
        'DELETE FROM audit_chain WHERE seq IN (SELECT seq FROM audit_chain WHERE seq <= ? ORDER BY seq LIMIT ?)',
      )
      .run(throughSeq, limit).changes;
  }
}
