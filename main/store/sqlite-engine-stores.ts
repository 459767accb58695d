import type Database from 'better-sqlite3';
import type { EngineStores } from '../engine/engine-stores';
import type { WorkStore } from '../engine/kernel/kernel-store';
import { AuditRepository } from './audit-repository';
import { AuditTrail } from './audit-trail';
import { GrantsRepository } from './grants-repository';
import {
  ControlsRepository,
  RulesRepository,
  SettingsRepository,
  TranscriptRepository,
} from './misc-repositories';
import { OwedTranscriptsRepository } from './owed-transcripts-repository';
import { PolicyTrustRepository } from './policy-trust-repository';
import { joinRepositories } from './repository-port';
import { RequestPicturesRepository } from './request-pictures-repository';
import { RequestsRepository } from './requests-repository';
import type { RequestTail } from './request-tail-indexer';
import { RunInputsRepository } from './run-inputs-repository';
import { SessionSummaryQueries } from './session-summary-facts';
import { SessionTimeline } from './session-timeline';
import { SessionsRepository } from './sessions-repository';
import { SuggestionSnoozesRepository } from './suggestion-snoozes-repository';

/** Transactions and write batches (group commit) over one connection. */
class SqliteTransactions implements Pick<
  WorkStore,
  'transaction' | 'beginBatch' | 'commitBatch' | 'rollbackBatch' | 'inBatch'
> {
  private depth = 0;
  // One wrapper for every transaction: db.transaction() builds new functions on each call.
  private readonly inTransaction;
  private readonly begin;
  private readonly commit;
  private readonly rollback;

  constructor(private readonly db: Database.Database) {
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  // Nested calls join the outer transaction. Inside a batch, better-sqlite3 makes each
  // transaction a savepoint, so a failing unit rolls back alone.
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.depth++;
    try {
      return this.inTransaction(fn) as T;
    } finally {
      this.depth--;
    }
  }

  beginBatch(): void {
    this.begin.run();
  }

  commitBatch(): void {
    this.commit.run();
  }

  rollbackBatch(): void {
    if (this.db.inTransaction) this.rollback.run();
  }

  inBatch(): boolean {
    return this.db.inTransaction;
  }
}

/** The engine's stores, and the requests' tail the idle indexer writes (request-tail-indexer.ts). */
export interface SqliteEngineStores extends EngineStores {
  requestTail: RequestTail;
}

/**
 * The engine's storage over one better-sqlite3 connection: one repository per table, and one
 * object per port of the engine, built straight from the repositories whose methods are the
 * port's methods (each port's type says which of them it offers).
 */
export function createSqliteEngineStores(db: Database.Database): SqliteEngineStores {
  const sessions = new SessionsRepository(db);
  const owedFiles = new OwedTranscriptsRepository(db);
  const requests = new RequestsRepository(db);
  const grants = new GrantsRepository(db);
  const rules = new RulesRepository(db);
  const audit = new AuditRepository(db);
  const trail = new AuditTrail(audit, requests);
  const transcript = new TranscriptRepository(db);
  const timeline = new SessionTimeline(transcript, requests);
  const controls = new ControlsRepository(db);
  const policyTrust = new PolicyTrustRepository(db);
  const snoozes = new SuggestionSnoozesRepository(db);
  const runInputs = new RunInputsRepository(db);
  const summaries = new SessionSummaryQueries(db);
  const trailReads = joinRepositories(trail);
  return {
    work: joinRepositories(new SqliteTransactions(db), audit, transcript),
    settings: joinRepositories(new SettingsRepository(db)),
    audit: trailReads,
    requests: joinRepositories(requests, grants, trail),
    sessions: joinRepositories(
      sessions,
      owedFiles,
      summaries,
      requests,
      transcript,
      timeline,
      trail,
    ),
    policy: joinRepositories(rules, policyTrust, runInputs, snoozes, requests),
    controls: joinRepositories(controls, sessions),
    guards: joinRepositories(sessions, trail),
    pictures: new RequestPicturesRepository(db),
    requestTail: requests,
  };
}
