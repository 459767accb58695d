import type { AuditEvent, TranscriptEntry } from '../../../shared/domain';
import type { Page } from './page';

export interface AuditInput {
  at: number;
  type: string;
  sessionId?: string | undefined;
  agent?: string | undefined;
  requestId?: string | undefined;
  data: Record<string, unknown>;
}

export interface AuditQuery {
  type?: string | undefined;
  sessionId?: string | undefined;
  agent?: string | undefined;
  requestId?: string | undefined;
  sinceMs?: number;
  /** Entries before this time. */
  untilMs?: number;
  afterSeq?: number | undefined;
  limit: number;
  /** The page after this one (see main/store/paging.ts). */
  cursor?: string | undefined;
}

/**
 * What the unit of work writes through: transactions, write batches (group commit) and the
 * rows every change appends (audit entries, transcript rows). Implemented over better-sqlite3
 * in main/store; all methods are synchronous so that a change and its audit entry share one
 * transaction.
 */
export interface WorkStore {
  /** Runs `fn` atomically; inside an open batch it is a savepoint of the batch. */
  transaction<T>(fn: () => T): T;
  /** Starts a write batch (group commit): later transactions join it until `commitBatch`. */
  beginBatch(): void;
  commitBatch(): void;
  rollbackBatch(): void;
  /**
   * Whether the batch is still open. SQLite rolls back the whole transaction by itself on
   * some errors (SQLITE_FULL, I/O errors), taking every unit of the batch with it.
   */
  inBatch(): boolean;
  appendAudit(entry: AuditInput): number;
  /**
   * Rewrites the data of an entry the engine folds repeats into (`action.classified`, see
   * classify-folding.ts); false when no such entry exists (rolled back or pruned).
   */
  updateAuditData(seq: number, data: Record<string, unknown>): boolean;
  appendTranscript(sessionId: string, entry: TranscriptEntry): void;
}

/** Reading the audit trail (the `audit.query` admin method, reports, recent trips). */
export interface AuditReadStore {
  queryAudit(q: AuditQuery): AuditEvent[];
  /** {@link queryAudit} with where the next page starts, and with `withTotal` a count. */
  pageAudit(q: AuditQuery & { withTotal?: boolean | undefined }): Page<AuditEvent>;
}

/** Where the settings are kept (one JSON document). */
export interface SettingsStore {
  loadSettings(): unknown;
  saveSettings(value: unknown, at: number): void;
}
