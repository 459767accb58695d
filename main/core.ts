import type Database from 'better-sqlite3';
import { randomInt } from 'node:crypto';
import { ensureSocketDir } from '../shared/node/socket-dir';
import { prepareDataFolder } from './data-folder';
import { lockDataFolder } from './store/data-folder-lock';
import type { Clock } from '../shared/clock';
import { systemClock } from '../shared/node/system-clock';
import type { Engine } from './engine/engine';
import { buildEngine } from './engine/build-engine';
import { pinnedHubKey } from './hub-link/pinned-hub-key';
import { TeamPolicyBook } from './hub-link/team-policy-book';
import { TeamPolicyRepository } from './store/team-policy-repository';
import { nodePictureSource } from './picture/compute-picture';
import { EventBus } from './engine/kernel/event-bus';
import { GuardStateRepository } from './store/guard-state-repository';
import { timeOrderedIds, type IdSource } from './engine/kernel/ids';
import { adminTokenPath, databasePath, transcriptsDir } from './paths';
import { EngineAdminService } from './server/admin-service';
import { notifyAdminHandlers } from './server/notify-admin';
import { AttachedServices } from './server/attached-services';
import type { AdminService } from './server/admin-port';
import { WaitNotes } from './engine/requests/wait-notes';
import { ensureAdminToken } from './server/admin-token';
import { AgentSocketServer } from './server/agent-socket';
import { channelBoundAdmin } from './server/transport-channel';
import type { SocketLimits } from './server/socket-limits';
import { ConnectionRegistry } from './server/connection-registry';
import { WalCheckpointer } from './store/checkpointer';
import { LoopActivity } from './store/loop-activity';
import { RequestTailIndexer } from './store/request-tail-indexer';
import { AuditChainRepository } from './store/audit-chain-repository';
import { ensureAuditKey } from './audit/audit-key';
import type { Ed25519Pair } from '../shared/node/hub-keys';
import { AuditSealer } from './audit/audit-sealer';
import { verifyAuditChain } from './audit/audit-verifier';
import { verifyAuditChainWithHub } from './audit/audit-verify-hub';
import { signExport } from './audit/export-signer';
import { openDatabase } from './store/database';
import { projectPolicyFiles } from './store/project-policy-files';
import { newestRequestId } from './store/requests-repository';
import { RetentionService } from './store/retention-service';
import { createSqliteEngineStores } from './store/sqlite-engine-stores';
import { transcriptFiles, type TranscriptFiles } from './store/transcript-files';
import { writeOwedTranscripts } from './store/transcript-recovery';
import { VERSION } from '../shared/version';
import {
  createDecisionLinkService,
  type DecisionLinkService,
} from './remote/decision-link-service';
import { pathProtection, protectedRoots } from './protection';
import { gitConfigIncludes } from '../shared/node/git-config-includes';
import { loadBashParser } from '../shared/node/bash-parser';
import type { Settings } from '../shared/settings/index';

export interface CoreOptions {
  home: string;
  socketPath: string;
  clock?: Clock;
  ids?: IdSource;
  /** better-sqlite3 built for Electron's ABI, in the desktop app. */
  nativeBinding?: string | undefined;
  /** Cap on the database's size (`GATEHOUSE_DB_MAX_MB`); unlimited when absent. */
  maxDatabaseBytes?: number;
  /** The port GATEHOUSE_DASHBOARD_PORT gives the dashboard, over `dashboard.port`. */
  dashboardPortFromEnv?: { variable: string; port: number };
  /** Agent socket limits (backpressure, timeouts); the defaults when absent. */
  socketLimits?: SocketLimits;
  /** Gatehouse's built program, guarded like its data (see ProtectionOptions.programDir). */
  programDir?: string;
}

export interface Core {
  db: Database.Database;
  bus: EventBus;
  engine: Engine;
  /** The settings as the engine and the guardrails see them (read-only here). */
  settings: { get(): Settings };
  admin: AdminService;
  socketPath: string;
  home: string;
  /** Decision links: signed capabilities to decide a request from a phone (main/remote/). */
  links: DecisionLinkService;
  /** Closed sessions' transcript files (written by the engine, removed by retention). */
  transcripts: TranscriptFiles;
  /** Where the notifier and the dashboard attach once they run (main/runtime/). */
  attached: AttachedServices;
  /** Words a timeout's answer carries: the hub link notes a team quorum's count here. */
  waitNotes: WaitNotes;
  /** The team policy from the hub: read by the engine, fed by the hub link. */
  teamPolicy: TeamPolicyBook;
  /** Opens the agent socket; throws AlreadyRunningError when another instance has it. */
  listen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds everything both modes share, each part after the parts it needs (no forward
 * references):
 *   1. data directory (checked, then locked for this process's life) and admin token;
 *   2. database (migrated) and the engine's stores over it (one per capability);
 *   3. event bus and connection registry (the agent notifier);
 *   4. the engine, composed by buildEngine (engine/build-engine.ts): unit of work, settings,
 *      guardrails, the capabilities' services, the agent side and the admin side;
 *   5. admin service (the method table over the engine's admin side), then the socket.
 * In the program it is built by the runtime (main/runtime/start-runtime.ts) that both roots
 * (the headless daemon and the desktop shell) start: the runtime runs the dashboard, the
 * notifier, the remote listener, the reply topic and the http hook around this core, and the
 * dashboard and the notifier attach to `attached` once they run.
 */
export function createCore(o: CoreOptions): Core {
  // Before anything touches the data directory: when it also holds the socket, a directory
  // someone else owns or opened up is refused, not silently repaired.
  ensureSocketDir(o.socketPath);
  prepareDataFolder(o.home);
  // Held until close (or the process's end): a second Gatehouse on this folder stops here.
  const lock = lockDataFolder(o.home, o.nativeBinding);
  let db: Database.Database;
  let token: string;
  let auditKey: Ed25519Pair;
  try {
    token = ensureAdminToken(adminTokenPath(o.home));
    auditKey = ensureAuditKey(o.home);
    db = openDatabase({
      file: databasePath(o.home),
      ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
      ...(o.maxDatabaseBytes ? { maxBytes: o.maxDatabaseBytes } : {}),
    });
  } catch (error) {
    lock.release();
    throw error;
  }
  const clock = o.clock ?? systemClock;
  const stores = createSqliteEngineStores(db);
  let checkpointer: WalCheckpointer | undefined;
  const bus = new EventBus();
  const registry = new ConnectionRegistry();
  // One writer of transcript files: the engine writes them, retention removes them.
  const archive = transcriptFiles(transcriptsDir(o.home), {
    writerIdle: () => !db.inTransaction,
    onWritten: (sessionId) => stores.sessions.transcriptFileWritten(sessionId),
  });
  const waitNotes = new WaitNotes();
  // The engine records the book's audit entries; it is built just below, before any entry.
  const teamAudit: {
    record?: (type: string, data: Record<string, unknown>) => void;
    pending: [string, Record<string, unknown>][];
  } = { pending: [] };
  const teamPolicy = new TeamPolicyBook({
    repo: new TeamPolicyRepository(db),
    now: () => clock.now(),
    pinnedKey: () => pinnedHubKey(o.home),
    audit: (type, data) => {
      if (teamAudit.record) teamAudit.record(type, data);
      else teamAudit.pending.push([type, data]);
    },
  });
  const { engine, work, settings, pictures } = buildEngine({
    team: teamPolicy,
    stores,
    waitNotes,
    guardState: new GuardStateRepository(db, () => clock.now()),
    bus,
    clock,
    // Carried on from the newest stored id, so ids (request keys) never go back, whatever the clock.
    ids: o.ids ?? timeOrderedIds(() => clock.now(), randomInt, newestRequestId(db)),
    notifier: registry,
    archive,
    loadProjectPolicy: projectPolicyFiles(),
    gitConfigIncludes: (root) => gitConfigIncludes(root),
    // No picture reads Gatehouse's own files (the admin token, the hub key), whatever the call names.
    pictureSource: nodePictureSource({
      closedRoots: protectedRoots({
        home: o.home,
        socketPath: o.socketPath,
        ...(o.programDir ? { programDir: o.programDir } : {}),
      }),
    }),
    log: (message) => console.error(`gatehouse: ${message}`),
    protection: pathProtection({
      home: o.home,
      socketPath: o.socketPath,
      ...(o.programDir ? { programDir: o.programDir } : {}),
    }),
    version: VERSION,
  });
  teamAudit.record = (type, data) => engine.recordAudit(type, { data });
  // A stored bundle refused while the engine was being built is audited now.
  for (const [type, data] of teamAudit.pending.splice(0)) teamAudit.record(type, data);
  const attached = new AttachedServices();
  // A write refused for want of space: the WAL gives its copied space back at once.
  work.onWriteFailed((error) => {
    if ((error as { code?: unknown } | null)?.code === 'SQLITE_FULL') checkpointer?.relieve();
  });
  const links = createDecisionLinkService({
    home: o.home,
    db,
    engine,
    work,
    clock,
    settings: () => settings.get(),
    dashboardUrl: () => attached.dashboardUrl(),
  });
  const auditChain = new AuditChainRepository(db);
  const indexerLoop = new LoopActivity();
  const tailIndexer = new RequestTailIndexer({
    tail: stores.requestTail,
    clock,
    writerIdle: () => !db.inTransaction,
    loopBusy: () => indexerLoop.busySinceLast(),
    log: (message) => console.error(`gatehouse: ${message}`),
  });
  const sealerLoop = new LoopActivity();
  const sealer = new AuditSealer({
    chain: auditChain,
    key: auditKey,
    clock,
    // A folded classification is rewritten for this long after it is written.
    settleMs: () => settings.get().audit.classifyFoldMs + 1000,
    checkpointMs: () => settings.get().audit.checkpointMs,
    writerIdle: () => !db.inTransaction,
    loopBusy: () => sealerLoop.busySinceLast(),
    log: (message) => console.error(`gatehouse: ${message}`),
  });
  const retention = new RetentionService({
    db,
    chain: auditChain,
    clock,
    settings: () => settings.get(),
    work,
    transcriptsDir: transcriptsDir(o.home),
    archive,
    closeAbandoned: () => engine.closeAbandoned(),
  });
  const startedAt = clock.now();
  let closing = false;
  let owedWritten: Promise<unknown> = Promise.resolve();
  const admin = new EngineAdminService(
    engine,
    bus,
    {
      version: VERSION,
      socketPath: o.socketPath,
      home: o.home,
      startedAt,
      dashboardUrl: () => attached.dashboardUrl(),
      ...(o.dashboardPortFromEnv ? { dashboardPortFromEnv: o.dashboardPortFromEnv } : {}),
      channelHealth: () => attached.channelHealth(),
      hubLink: () => attached.hubLinkStatus(),
      teamPolicy: () => teamPolicy.info(),
    },
    links.handlers,
    notifyAdminHandlers({
      settings,
      testChannel: (channel) => attached.testChannel(channel),
      pauseChat: (app, ms) => attached.pauseChat(app, ms),
      findTelegramChats: (waitS) => attached.telegramChats(waitS),
    }),
    {
      'retention.prune': (p) => retention.prune(p),
      'audit.verify': () => {
        // What has settled is chained first, so the answer covers it.
        if (!db.inTransaction)
          sealer.seal(clock.now() - settings.get().audit.classifyFoldMs - 1000);
        return verifyAuditChain(auditChain, auditKey.publicKey);
      },
      'audit.verifyHub': () => {
        if (!db.inTransaction)
          sealer.seal(clock.now() - settings.get().audit.classifyFoldMs - 1000);
        return verifyAuditChainWithHub(auditChain, auditKey.publicKey, attached.hubAudit(), o.home);
      },
      'audit.exportSignature': (p) =>
        signExport(
          p,
          async (q) => await engine.admin.call('audit.query', q),
          auditKey,
          () => clock.now(),
        ),
      'audit.key': () => ({ publicKey: auditKey.publicKey }),
    },
  );
  const socket = new AgentSocketServer({
    engine,
    // Decisions over the socket are recorded as `cli`, `mcp` or `socket`, never another channel.
    admin: channelBoundAdmin(admin, 'socket'),
    registry,
    adminToken: () => token,
    clock,
    limits: o.socketLimits,
  });
  return {
    db,
    bus,
    engine,
    settings,
    admin,
    links,
    transcripts: archive,
    attached,
    waitNotes,
    teamPolicy,
    socketPath: o.socketPath,
    home: o.home,
    async listen() {
      // Loaded before the first agent can call: classify parses shell commands synchronously.
      await loadBashParser();
      await socket.listen(o.socketPath);
      checkpointer = new WalCheckpointer({
        db,
        file: databasePath(o.home),
        writerIdle: () => !db.inTransaction,
        ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
      });
      engine.start();
      retention.start();
      sealer.start();
      tailIndexer.start();
      // Files a crash kept from being written, in the background once agents can call.
      owedWritten = writeOwedTranscripts({
        store: stores.sessions,
        files: archive,
        stopped: () => closing,
      }).catch((error: unknown) =>
        console.error('gatehouse: could not write the transcript files still owed:', error),
      );
    },
    async close() {
      closing = true;
      await socket.close();
      // Let the closed connections' handlers run before the engine and database go away.
      await new Promise((resolve) => setImmediate(resolve));
      // Pictures being computed are stored (each git call has a timeout) before the database goes.
      await pictures?.settled();
      retention.stop();
      tailIndexer.stop();
      engine.stop();
      // Nothing can change an entry now (stop committed the last batch): the whole trail is
      // chained and its head signed.
      sealer.stop();
      // A transcript file being written is finished (it reads the database), not left half.
      await archive.idle();
      await owedWritten;
      await checkpointer?.stop();
      db.close();
      lock.release();
    },
  };
}
