import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Engine, AgentCaller } from '../../main/engine/engine';
import { buildEngine } from '../../main/engine/build-engine';
import type { EngineStores } from '../../main/engine/engine-stores';
import { EventBus } from '../../main/engine/kernel/event-bus';
import type { GuardChain } from '../../main/engine/guards/engine-guard-chain';
import type { SettingsService } from '../../main/engine/kernel/settings-service';
import type { UnitOfWork } from '../../main/engine/kernel/unit-of-work';
import { GuardStateRepository } from '../../main/store/guard-state-repository';
import type { GatehouseEvent } from '../../shared/events';
import { sequentialIds } from '../../main/engine/kernel/ids';
import type { AgentNotifier } from '../../main/engine/kernel/ports';
import { openDatabase } from '../../main/store/database';
import { projectPolicyFiles } from '../../main/store/project-policy-files';
import { createSqliteEngineStores } from '../../main/store/sqlite-engine-stores';
import { transcriptFiles, type TranscriptFiles } from '../../main/store/transcript-files';
import { writeOwedTranscripts } from '../../main/store/transcript-recovery';
import { FakeClock } from './fake-clock';

/** Every port of the engine's storage as one object, for tests that read what was saved. */
export type AllStorePorts = EngineStores['work'] &
  EngineStores['settings'] &
  EngineStores['audit'] &
  EngineStores['requests'] &
  EngineStores['sessions'] &
  EngineStores['policy'] &
  EngineStores['controls'] &
  EngineStores['guards'];

/** An engine over a real SQLite file in a temp dir, with a fake clock. */
export class EngineHarness {
  readonly dir = mkdtempSync(join(tmpdir(), 'gatehouse-engine-'));
  readonly clock = new FakeClock();
  readonly bus = new EventBus();
  readonly events: GatehouseEvent[] = [];
  readonly notifications: { to: string; method: string; params: object }[] = [];
  db!: Database.Database;
  engine!: Engine;
  guards!: GuardChain;
  /** The engine's stores (wrapped as the test asked), one object per port. */
  stores!: EngineStores;
  /** The engine's stores (wrapped as the test asked), every port as one object. */
  store!: AllStorePorts;
  /** The engine's unit of work, for tests of how caches follow rolled-back units. */
  work!: UnitOfWork;
  settings!: SettingsService;
  /** The transcript files the engine writes (await `archive.idle()` to read one). */
  archive!: TranscriptFiles;

  /** `wrapStore` lets a test put faults between the engine and its real store. */
  constructor(private readonly wrapStores: (stores: EngineStores) => EngineStores = (s) => s) {
    this.bus.subscribe((e) => this.events.push(e));
    this.open();
  }

  /** (Re)opens the database and builds a fresh engine on it, as a restart would. */
  open(): void {
    this.db = openDatabase({ file: join(this.dir, 'gatehouse.db') });
    const notifier: AgentNotifier = {
      toSession: (sessionId, method, params) =>
        this.notifications.push({ to: sessionId, method, params }),
      toAgent: (agent, method, params) =>
        this.notifications.push({ to: agent ?? '*', method, params }),
    };
    const stores = this.wrapStores(createSqliteEngineStores(this.db));
    this.stores = stores;
    this.store = allStorePorts(stores);
    const db = this.db;
    this.archive = transcriptFiles(join(this.dir, 'transcripts'), {
      writerIdle: () => !db.inTransaction,
      onWritten: (sessionId) => stores.sessions.transcriptFileWritten(sessionId),
    });
    // The engine as core.ts builds it (buildEngine), over this test's clock, ids and files.
    ({
      engine: this.engine,
      work: this.work,
      settings: this.settings,
      guards: this.guards,
    } = buildEngine({
      stores,
      guardState: new GuardStateRepository(this.db, () => this.clock.now()),
      bus: this.bus,
      clock: this.clock,
      ids: sequentialIds(),
      notifier,
      archive: this.archive,
      loadProjectPolicy: projectPolicyFiles(),
      version: 'test',
    }));
    this.engine.start();
  }

  restart(): void {
    this.engine.stop();
    // As a crash would: a file being written is left unfinished (its temp file).
    this.archive.abandon();
    this.db.close();
    this.open();
  }

  /** Writes the transcript files still owed, as the daemon does in the background once ready. */
  writeOwedTranscripts(): Promise<number> {
    return writeOwedTranscripts({ store: this.store, files: this.archive, stopped: () => false });
  }

  hello(agent = 'agent-a', extra: { sessionKey?: string; project?: string } = {}): AgentCaller {
    const { session } = this.engine.hello({ agent, ...extra });
    this.engine.attach(session.sessionId);
    return { sessionId: session.sessionId, agent };
  }

  /** Writes a `.gatehouse.toml` into a new project directory and returns its path. */
  project(toml: string): string {
    const dir = join(this.dir, `project-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    writeFileSync(join(dir, '.gatehouse.toml'), toml);
    return dir;
  }

  /** Trusts the current content of a project's policy file, as `gatehouse trust` does. */
  trust(projectDir: string): void {
    const pp = projectPolicyFiles()(projectDir);
    if (!pp) throw new Error(`no policy file in ${projectDir}`);
    // `trust.add` answers once committed; committing now makes the trust hold at once. A
    // failure rejects the promise, which vitest reports as an unhandled rejection.
    void this.engine.admin.call('trust.add', { dir: pp.dir, sha256: pp.sha256, via: 'cli' });
    this.work.flush();
  }

  /** The kill-switch state of an agent, as `agents.list` shows it. */
  controlOf(agent: string): string | undefined {
    return this.engine.admin.call('agents.list', {}).agents.find((a) => a.agent === agent)?.state;
  }

  async close(): Promise<void> {
    this.engine.stop();
    this.archive.abandon();
    this.db.close();
    // A transcript write that the test's last change began (a session ended) runs its file
    // calls in libuv's threads: removing the folder under them failed with ENOTEMPTY under
    // load, or left the folder behind. Abandoned, it stops at its next step.
    await this.archive.idle();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Lets pending promise callbacks run. */
export const flush = () => new Promise<void>((r) => setImmediate(r));

/** The engine's stores over `db`, every port as one object (tests that read the store). */
export function allStorePorts(stores: EngineStores): AllStorePorts {
  return Object.assign({}, ...Object.values(stores)) as AllStorePorts;
}
