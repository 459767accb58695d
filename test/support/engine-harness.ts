import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { Engine, type AgentCaller } from '../../main/engine/engine';
import { EventBus } from '../../main/engine/event-bus';
import { GuardChain } from '../../main/engine/guards/guard-chain';
import { GuardStateRepository } from '../../main/store/guard-state-repository';
import type { GatehouseEvent } from '../../shared/events';
import { sequentialIds } from '../../main/engine/ids';
import type { AgentNotifier } from '../../main/engine/ports';
import { openDatabase } from '../../main/store/database';
import { projectPolicyFiles } from '../../main/store/project-policy-files';
import { createSqliteEngineStore } from '../../main/store/sqlite-engine-store';
import type { EngineStore } from '../../main/engine/store-port';
import { transcriptFiles } from '../../main/store/transcript-files';
import { FakeClock } from './fake-clock';

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

  /** `wrapStore` lets a test put faults between the engine and its real store. */
  constructor(private readonly wrapStore: (store: EngineStore) => EngineStore = (s) => s) {
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
    const settings: { get?: () => ReturnType<Engine['settings']['get']> } = {};
    this.guards = new GuardChain({
      clock: this.clock,
      store: new GuardStateRepository(this.db, () => this.clock.now()),
      settings: () => settings.get!(),
    });
    this.engine = new Engine({
      guards: this.guards,
      store: this.wrapStore(createSqliteEngineStore(this.db)),
      bus: this.bus,
      clock: this.clock,
      ids: sequentialIds(),
      notifier,
      archive: transcriptFiles(join(this.dir, 'transcripts')),
      loadProjectPolicy: projectPolicyFiles(),
      version: 'test',
    });
    settings.get = () => this.engine.settings.get();
    this.engine.start();
  }

  restart(): void {
    this.engine.stop();
    this.db.close();
    this.open();
  }

  hello(agent = 'agent-a', extra: { sessionKey?: string; project?: string } = {}): AgentCaller {
    const { session } = this.engine.hello({ agent, ...extra });
    this.engine.sessions.attach(session.sessionId);
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
    this.engine.policyTrust.trust({
      projectDir: pp.dir,
      file: pp.file,
      sha256: pp.sha256,
      policy: pp.policy,
      via: 'test',
    });
    this.engine.work.flush();
  }

  close(): void {
    this.engine.stop();
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Lets pending promise callbacks run. */
export const flush = () => new Promise<void>((r) => setImmediate(r));
