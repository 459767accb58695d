import type Database from 'better-sqlite3';
import type { EngineStore } from '../engine/store-port';
import { AuditRepository } from './audit-repository';
import { fileRequest, pageAuditTrail, queryAuditTrail } from './audit-trail';
import { GrantsRepository } from './grants-repository';
import {
  ControlsRepository,
  RulesRepository,
  SettingsRepository,
  TranscriptRepository,
} from './misc-repositories';
import { PolicyTrustRepository } from './policy-trust-repository';
import { RequestsRepository } from './requests-repository';
import { RunInputsRepository } from './run-inputs-repository';
import { SessionsRepository } from './sessions-repository';
import { OwedTranscriptsRepository } from './owed-transcripts-repository';
import { SessionSummaryQueries } from './session-summary-facts';
import {
  firstOfSessionTimeline,
  pageSessionRequestsOldestFirst,
  pageSessionTimeline,
  pageSessionTimelineOldestFirst,
} from './session-timeline';
import { SuggestionSnoozesRepository } from './suggestion-snoozes-repository';

/** The engine's storage over one better-sqlite3 connection, one repository per table. */
export function createSqliteEngineStore(db: Database.Database): EngineStore {
  const sessions = new SessionsRepository(db);
  const owedFiles = new OwedTranscriptsRepository(db);
  const requests = new RequestsRepository(db);
  const grants = new GrantsRepository(db);
  const rules = new RulesRepository(db);
  const audit = new AuditRepository(db);
  const transcript = new TranscriptRepository(db);
  const controls = new ControlsRepository(db);
  const settings = new SettingsRepository(db);
  const policyTrust = new PolicyTrustRepository(db);
  const snoozes = new SuggestionSnoozesRepository(db);
  const runInputs = new RunInputsRepository(db);
  const summaries = new SessionSummaryQueries(db);
  let depth = 0;
  // One wrapper for every transaction: db.transaction() builds new functions on each call.
  const inTransaction = db.transaction((fn: () => unknown) => fn());
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');

  return {
    // Nested calls join the outer transaction. Inside a batch, better-sqlite3 makes each
    // transaction a savepoint, so a failing unit rolls back alone.
    transaction<T>(fn: () => T): T {
      if (depth > 0) return fn();
      depth++;
      try {
        return inTransaction(fn) as T;
      } finally {
        depth--;
      }
    },
    beginBatch: () => void begin.run(),
    commitBatch: () => void commit.run(),
    rollbackBatch: () => {
      if (db.inTransaction) rollback.run();
    },
    inBatch: () => db.inTransaction,
    insertSession: (r) => sessions.insert(r),
    updateSession: (id, p) => sessions.update(id, p),
    getSession: (id) => sessions.get(id),
    findSessionByKey: (a, k) => sessions.findByKey(a, k),
    listSessions: (q) => sessions.list(q),
    pageSessions: (q) => sessions.page(q),
    countActiveSessions: () => sessions.countActive(),
    oweTranscriptFile: (id, connections) => owedFiles.owe(id, connections),
    owedTranscriptFiles: (after, limit) => owedFiles.page(after, limit),
    transcriptFileWritten: (id) => owedFiles.clear(id),
    fileRequest: (r) => fileRequest(audit, requests, r),
    updateRequest: (id, p) => requests.update(id, p),
    getRequest: (id) => requests.get(id),
    findOpenByDedupeKey: (s, k) => requests.findOpenByDedupeKey(s, k),
    listOpenRequests: () => requests.listOpen(),
    pageOpenRequests: (q) => requests.pageOpen(q),
    countWaiting: () => requests.countWaiting(),
    countWaitingForAgent: (agent) => requests.countWaitingForAgent(agent),
    listDueWaits: (after, upTo, limit) => requests.listDueWaits(after, upTo, limit),
    nextWaitDeadline: (after) => requests.nextWaitDeadline(after),
    countOpenRequests: (sessionId) => requests.countOpen(sessionId),
    queryRequests: (q) => requests.query(q),
    listSessionRequests: (s) => requests.listForSession(s),
    sessionSummaryFacts: (s, max) => summaries.facts(s, max),
    listFirstSessionRequests: (s, limit, statuses) => requests.firstForSession(s, limit, statuses),
    countSessionRequestsByStatus: (s) => requests.countForSessionByStatus(s),
    listNewestSessionRequests: (s, limit) => requests.pageForSession(s, limit).map((r) => r.row),
    listHumanDecidedRequests: (limit) => requests.listHumanDecided(limit),
    insertGrant: (g) => grants.insert(g),
    updateGrant: (id, p) => grants.update(id, p),
    listLiveGrants: (a, act) => grants.listLive(a, act),
    listLiveGrantsForAgent: (a) => grants.listLiveForAgent(a),
    insertRule: (r) => rules.insert(r),
    listRules: () => rules.list(),
    deleteRule: (id) => rules.delete(id),
    appendAudit: (e) => audit.append(e),
    updateAuditData: (seq, data) => audit.updateData(seq, data),
    queryAudit: (q) => queryAuditTrail(audit, requests, q),
    pageAudit: (q) => pageAuditTrail(audit, requests, q),
    appendTranscript: (s, e) => transcript.append(s, e),
    listTranscript: (s) => transcript.list(s),
    pageSessionTimeline: (s, q) => pageSessionTimeline(transcript, requests, s, q),
    firstOfSessionTimeline: (s, limit) => firstOfSessionTimeline(transcript, requests, s, limit),
    pageSessionTimelineOldestFirst: (s, q) =>
      pageSessionTimelineOldestFirst(transcript, requests, s, q),
    pageSessionRequestsOldestFirst: (s, q) => pageSessionRequestsOldestFirst(requests, s, q),
    forEachSessionTranscript: (s, kind, fn) => transcript.forEachOfKind(s, kind, fn),
    setControl: (r) => controls.set(r),
    clearControl: (a) => controls.clear(a),
    listControls: () => controls.list(),
    upsertSuggestionSnooze: (r) => snoozes.upsert(r),
    listSuggestionSnoozes: (now) => snoozes.listActive(now),
    pruneSuggestionSnoozes: (now) => snoozes.prune(now),
    upsertPolicyTrust: (r) => policyTrust.upsertTrust(r),
    deletePolicyTrust: (d) => policyTrust.deleteTrust(d),
    listPolicyTrust: () => policyTrust.listTrust(),
    upsertPolicySeen: (r) => policyTrust.upsertSeen(r),
    listPolicySeen: () => policyTrust.listSeen(),
    insertPolicyTrustNotice: (d, h, at) => policyTrust.insertNotice(d, h, at),
    listPolicyTrustNotices: () => policyTrust.listNotices(),
    upsertRunInputChange: (r) => runInputs.upsert(r),
    listRunInputChanges: (p, g) => runInputs.list(p, g),
    clearRunInputChanges: (p, g, upTo) => runInputs.clear(p, g, upTo),
    loadSettings: () => settings.load(),
    saveSettings: (v, at) => settings.save(v, at),
  };
}
