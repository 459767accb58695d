import type Database from 'better-sqlite3';
import type { EngineStore } from '../engine/store-port';
import { AuditRepository } from './audit-repository';
import { GrantsRepository } from './grants-repository';
import {
  ControlsRepository,
  RulesRepository,
  SettingsRepository,
  TranscriptRepository,
} from './misc-repositories';
import { RequestsRepository } from './requests-repository';
import { SessionsRepository } from './sessions-repository';

/** The engine's storage over one better-sqlite3 connection, one repository per table. */
export function createSqliteEngineStore(db: Database.Database): EngineStore {
  const sessions = new SessionsRepository(db);
  const requests = new RequestsRepository(db);
  const grants = new GrantsRepository(db);
  const rules = new RulesRepository(db);
  const audit = new AuditRepository(db);
  const transcript = new TranscriptRepository(db);
  const controls = new ControlsRepository(db);
  const settings = new SettingsRepository(db);
  let depth = 0;

  return {
    // Nested calls join the outer transaction; better-sqlite3 would otherwise use savepoints.
    transaction<T>(fn: () => T): T {
      if (depth > 0) return fn();
      depth++;
      try {
        return db.transaction(fn)();
      } finally {
        depth--;
      }
    },
    insertSession: (r) => sessions.insert(r),
    updateSession: (id, p) => sessions.update(id, p),
    getSession: (id) => sessions.get(id),
    findSessionByKey: (a, k) => sessions.findByKey(a, k),
    listSessions: (q) => sessions.list(q),
    insertRequest: (r) => requests.insert(r),
    updateRequest: (id, p) => requests.update(id, p),
    getRequest: (id) => requests.get(id),
    findOpenByDedupeKey: (s, k) => requests.findOpenByDedupeKey(s, k),
    listOpenRequests: () => requests.listOpen(),
    queryRequests: (q) => requests.query(q),
    listSessionRequests: (s) => requests.listForSession(s),
    insertGrant: (g) => grants.insert(g),
    updateGrant: (id, p) => grants.update(id, p),
    listLiveGrants: (a, act) => grants.listLive(a, act),
    listLiveGrantsForAgent: (a) => grants.listLiveForAgent(a),
    insertRule: (r) => rules.insert(r),
    listRules: () => rules.list(),
    deleteRule: (id) => rules.delete(id),
    appendAudit: (e) => audit.append(e),
    queryAudit: (q) => audit.query(q),
    appendTranscript: (s, e) => transcript.append(s, e),
    listTranscript: (s) => transcript.list(s),
    setControl: (r) => controls.set(r),
    clearControl: (a) => controls.clear(a),
    listControls: () => controls.list(),
    loadSettings: () => settings.load(),
    saveSettings: (v, at) => settings.save(v, at),
  };
}
