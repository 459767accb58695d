import type { Clock } from '../../shared/clock';
import { AgentControls } from './controls/controls';
import { controlsAdmin } from './controls/admin-controls';
import { EngineCore } from './engine-core';
import { Engine } from './engine';
import type { EngineStores } from './engine-stores';
import { guardsAdmin } from './guards/admin-guards';
import { GuardAdmin } from './guards/guard-chain-admin';
import { GuardChain } from './guards/engine-guard-chain';
import type { GuardStateStore } from './guards/guard-state-store';
import { AdminApi, unionOfTables } from './admin-api';
import { auditAdmin } from './kernel/admin-audit';
import { settingsAdmin } from './kernel/admin-settings';
import type { EventBus } from './kernel/event-bus';
import type { IdSource } from './kernel/ids';
import type { AgentNotifier, TranscriptArchive } from './kernel/ports';
import { SettingsService } from './kernel/settings-service';
import { UnitOfWork } from './kernel/unit-of-work';
import type { PictureSource } from './picture/picture-source';
import { RequestPictures } from './picture/request-pictures';
import { pictureAdmin } from './picture/admin-picture';
import { classifyEdited } from './requests/edited-call';
import type { RequestRow } from './requests/requests-store';
import { trustAdmin } from './policy/admin-trust';
import { rulesAdmin } from './policy/admin-rules';
import type { PathProtection } from './policy/path-port';
import type { ProjectPolicyLoader } from './policy/project-policy';
import { RuleBook } from './policy/rule-book';
import type { TeamPolicySource } from './policy/team-rules';
import { RuleSuggestions, suggestionLine } from './policy/rule-suggestions';
import { RunInputWatch } from './policy/run-input-watch';
import { PolicyTrustBook } from './policy/trust-book';
import { requestsAdmin } from './requests/admin-requests';
import { GrantUse } from './requests/grant-use';
import { GrantBook } from './requests/grants';
import { queueStatus } from './requests/queue-status';
import { ReviewQueue } from './requests/review-queue';
import type { WaitNotes } from './requests/wait-notes';
import { sessionsAdmin } from './sessions/admin-sessions';
import { SessionService } from './sessions/sessions';

/** What the engine is built from: its storage, and the world it is injected. */
export interface EngineDeps {
  stores: EngineStores;
  /** Where the guardrails keep their state (breakers, spend, ladders). */
  guardState: GuardStateStore;
  bus: EventBus;
  clock: Clock;
  ids: IdSource;
  notifier: AgentNotifier;
  archive: TranscriptArchive;
  loadProjectPolicy: ProjectPolicyLoader;
  /** Gatehouse's own files and the user's secrets (protected-paths.ts); wired by core.ts. */
  protection?: PathProtection;
  /** Words a timeout's answer carries (the hub's quorum count); wired by core.ts. */
  waitNotes?: WaitNotes;
  /** The files a project's git config includes (absolute); Node side, git-config-includes.ts. */
  gitConfigIncludes?: (projectRoot: string) => readonly string[];
  /** The team policy the hub pushed (main/hub-link/team-policy-book.ts); absent, none. */
  team?: TeamPolicySource;
  /** Computes a filed request's picture (main/picture/, Node side); absent, requests carry none. */
  pictureSource?: PictureSource;
  /** Where a picture that could not be computed is reported. */
  log?: (message: string) => void;
  version: string;
}

/** The engine and the parts its composition root also hands to others. */
export interface BuiltEngine {
  engine: Engine;
  /** The transactions every change runs in (group commit). */
  work: UnitOfWork;
  /** Settings, validated and cached; the guardrails read the same instance. */
  settings: SettingsService;
  guards: GuardChain;
  /** Filed requests' pictures, when a picture source was given. */
  pictures?: RequestPictures;
}

/**
 * The one composition of the engine, each part after the parts it needs (no forward
 * references): the unit of work, then the settings (cached, read in it), the guardrails
 * (which read those settings), the services of each capability, the agent side and the admin
 * side (the union of the capabilities' admin tables). main/core.ts and the tests' engine
 * harness both build the engine with this.
 */
export function buildEngine(deps: EngineDeps): BuiltEngine {
  const { stores, clock, ids, notifier } = deps;
  const work = new UnitOfWork(stores.work, deps.bus, clock);
  const settings = new SettingsService(stores.settings, work);
  const guards = new GuardChain({ clock, store: deps.guardState, settings: () => settings.get() });
  // For per-agent budgets when recovering a session: the session's agent, from the store.
  const guardAdmin = new GuardAdmin(guards, (id) => stores.sessions.getSession(id)?.agent);
  // Guard state is changed inside units like the engine's own caches.
  work.onRollback(() => guards.reload());

  const rules = new RuleBook(stores.policy, work, ids);
  const grants = new GrantBook(stores.requests, ids);
  const grantUse = new GrantUse(grants, work, clock);
  const runInputs = new RunInputWatch(
    stores.policy,
    work,
    () => deps.protection?.resolver,
    deps.gitConfigIncludes,
    () => deps.protection?.shell,
  );
  const policyTrust = new PolicyTrustBook(stores.policy, work);
  const suggestions = new RuleSuggestions({
    store: stores.policy,
    work,
    clock,
    rules,
    settings: () => settings.get(),
  });
  // A kill settles the agent's waiting requests in the review queue (built below; a kill
  // comes only once the engine runs).
  const controls = new AgentControls(stores.controls, work, notifier, (u, agent, reason) =>
    queue.cancelOpenOf(u, agent, reason),
  );
  const core = new EngineCore({
    clock,
    work,
    settings,
    guards,
    controls,
    rules,
    policyTrust,
    runInputs,
    grantUse,
    loadProjectPolicy: deps.loadProjectPolicy,
    protection: deps.protection,
    team: deps.team,
  });
  const sessions = new SessionService({
    store: stores.sessions,
    work,
    clock,
    ids,
    archive: deps.archive,
    graceMs: () => settings.get().sessions.graceMs,
    projectRoot: deps.loadProjectPolicy.projectRoot,
    publish: (event) => deps.bus.publish(event),
    spend: (s) => core.spendOf(s),
    suggestionsFor: (sessionId) => suggestions.list(sessionId).map(suggestionLine),
    onEnded: (u, s, status) => {
      if (status !== 'abandoned' && status !== 'active')
        core.applyEffects(u, s, guards.sessionEnded(core.guardContext(s), status));
    },
  });
  const queue = new ReviewQueue({
    store: stores.requests,
    work,
    clock,
    ids,
    grants,
    notifier,
    defaultTimeoutMs: () => settings.get().requests.defaultTimeoutMs,
    maxQueuedPerSession: () => settings.get().requests.maxQueuedPerSession,
    onWaiting: (sessionId) => sessions.requestWaiting(sessionId),
    addRule: (u, rule) => rules.addIn(u, rule),
    approvalHeld: (agent) => controls.approvalHeld(agent),
    ...(deps.waitNotes ? { waitNote: (id: string) => deps.waitNotes!.get(id) } : {}),
    // An edited tool call is classified as the gate classifies the agent's own calls.
    ...(deps.protection
      ? {
          checkEdit: (r: RequestRow, input: Record<string, unknown>, original) =>
            classifyEdited(
              r,
              input,
              deps.protection!.shell,
              (a, cwd, call) => core.classifyForRequest(sessions.get(r.sessionId), a, cwd, call),
              original,
            ),
        }
      : {}),
    onHumanDecision: (u, r, approved) => {
      suggestions.noteDecision(r);
      const s = sessions.get(r.sessionId);
      if (approved) {
        runInputs.approved(u, r);
        // A relayed tool call notes its writes when the gate lets it through (tool-gate.ts).
        if (r.context?.tool === undefined) runInputs.noteWritesIn(u, s, [r], undefined);
      }
      core.applyEffects(u, s, guards.recordDecision(core.guardContext(s), approved));
    },
    ladder: (session, p) => core.ladderApproval(session, p),
  });

  const pictures = deps.pictureSource
    ? new RequestPictures({
        store: stores.pictures,
        work,
        source: deps.pictureSource,
        ...(deps.log ? { log: deps.log } : {}),
      })
    : undefined;

  const admin = new AdminApi({
    table: unionOfTables(
      requestsAdmin({
        store: stores.requests,
        clock,
        queue,
        controls,
        sessions,
        inferUrgency: () => settings.get().requests.inferUrgency,
        pictureOf: (id) => stores.pictures.getPicture(id),
      }),
      sessionsAdmin({ store: stores.sessions, sessions, clock }),
      controlsAdmin({
        store: stores.controls,
        sessionRows: stores.sessions,
        controls,
        sessions,
      }),
      rulesAdmin({
        rules,
        suggestions,
        requestOf: (id) => queue.get(id),
        ...(deps.team ? { team: deps.team } : {}),
      }),
      trustAdmin({
        book: policyTrust,
        load: deps.loadProjectPolicy,
        work,
        canonicalProject: (dir) => core.canonicalProject(dir),
      }),
      guardsAdmin({
        admin: guardAdmin,
        store: stores.guards,
        work,
        clock,
        applyEffects: (u, effects) => core.applyEffects(u, undefined, effects),
      }),
      settingsAdmin(settings),
      auditAdmin(stores.audit, () => core.writeClassifiedCounts()),
      pictureAdmin({
        store: stores.pictures,
        ...(deps.pictureSource ? { source: deps.pictureSource } : {}),
        assertRequest: (id) => void queue.get(id),
      }),
    ),
    status: () =>
      queueStatus({
        requests: stores.requests,
        sessionRows: stores.sessions,
        controlRows: stores.controls,
        controls,
        sessions,
      }),
    waitingAgents: (requestId) => queue.waitingCount(requestId),
  });

  const engine = new Engine({
    core,
    admin,
    work,
    clock,
    settings,
    guards,
    sessions,
    queue,
    controls,
    grants,
    runInputs,
    openRequests: stores.requests,
    sessionRows: stores.sessions,
    protection: deps.protection,
    pictures,
    version: deps.version,
  });
  return { engine, work, settings, guards, ...(pictures ? { pictures } : {}) };
}
