import type { z } from 'zod';
import type { Mode } from '../../shared/domain';
import type * as A from '../../shared/protocol/agent-methods';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type { Settings } from '../../shared/settings/index';
import type { Clock } from '../../shared/clock';
import type { EventBus } from './kernel/event-bus';
import { GrantBook } from './requests/grants';
import { GrantUse } from './requests/grant-use';
import type { GuardContext, GuardEffects, GuardPort } from './guards/guard-port';
import type { GuardAdmin } from './guards/guard-admin';
import type { IdSource } from './kernel/ids';
import { ClassifyAuditFolder } from './requests/classify-folding';
import { classifyAction, type ActionDescription, type Classification } from './policy/classifier';
import type { PathProtection } from './policy/path-port';
import type { PathContext } from './policy/protected-paths';
import type { ProjectPolicyLoader } from './policy/project-policy';
import { ProjectPolicyMemo } from './policy/project-policy-memo';
import { PolicyTrustBook } from './policy/trust-book';
import type { AgentNotifier, TranscriptArchive } from './kernel/ports';
import { ReviewQueue } from './requests/review-queue';
import { AgentControls } from './controls/controls';
import { RuleBook } from './policy/rule-book';
import { RunInputWatch } from './policy/run-input-watch';
import { RuleSuggestions, suggestionLine } from './policy/rule-suggestions';
import { SessionService } from './sessions/sessions';
import type { EngineStore, GrantRecord, SessionRow } from './store-port';
import type { Unit, UnitOfWork } from './kernel/unit-of-work';
import { compact } from './kernel/records';

/**
 * What the engine is built from. The composition root builds the unit of work and the
 * settings before the guardrails (which read the settings) and hands all three to the engine:
 * see the order documented in main/core.ts.
 */
export interface EngineDeps {
  store: EngineStore;
  bus: EventBus;
  clock: Clock;
  ids: IdSource;
  notifier: AgentNotifier;
  archive: TranscriptArchive;
  loadProjectPolicy: ProjectPolicyLoader;
  /** The transactions every change runs in (built over the same store, bus and clock). */
  work: UnitOfWork;
  /** Settings, validated and cached; the guardrails read the same instance. */
  settings: SettingsSource;
  /** The runtime guardrails (breakers, budgets, safety switch, automation ladder). */
  guards: GuardPort;
  /** The person's side of the guardrails: budgets, breakers, resets, the ladder. */
  guardAdmin: GuardAdminPort;
  /** Gatehouse's own files and the user's secrets (protected-paths.ts); wired by core.ts. */
  protection?: PathProtection;
  /** The files a project's git config includes (absolute); Node side, git-config-includes.ts. */
  gitConfigIncludes?: (projectRoot: string) => readonly string[];
  version: string;
}

/** The settings as the engine uses them (SettingsService). */
export interface SettingsSource {
  get(): Settings;
  getKey(key: string): unknown;
  set(key: string, value: unknown): Settings;
}

/** The person's side of the guardrails, as the engine's human API drives it. */
export type GuardAdminPort = Pick<
  GuardAdmin,
  'budgets' | 'breakers' | 'reset' | 'recover' | 'ladder' | 'setLadderLevel'
>;

export type P<K extends keyof typeof A> = (typeof A)[K] extends z.ZodType
  ? z.output<(typeof A)[K]>
  : never;

/**
 * The engine's parts and the logic both of its sides share (classification, guard context,
 * effects). Internal to main/engine: the agent side (engine.ts) and the admin side
 * (admin-api.ts) hold it privately, so nothing outside the engine reaches a sub-service.
 */
export class EngineCore {
  readonly work: UnitOfWork;
  readonly sessions: SessionService;
  readonly queue: ReviewQueue;
  readonly grants: GrantBook;
  readonly rules: RuleBook;
  readonly settings: SettingsSource;
  readonly controls: AgentControls;
  /** Which project policy files the person trusts, by content. */
  readonly policyTrust: PolicyTrustBook;
  /** "Make it a rule" suggestions from repeated approvals, computed on demand. */
  readonly suggestions: RuleSuggestions;
  /** Files that decide what a test or git command runs, changed since the last approved run. */
  readonly runInputs: RunInputWatch;
  /** Counts repeated identical classifications into one audit entry. */
  private readonly classified: ClassifyAuditFolder;
  /** The project policy, looked up once per agent call. */
  private readonly policies: ProjectPolicyMemo;
  private readonly pathContexts = new Map<
    string | undefined,
    { protection: PathProtection; paths: PathContext }
  >();
  /** Grants where they settle a call outside the review queue. */
  private readonly grantUse: GrantUse;

  constructor(readonly deps: EngineDeps) {
    const { store, clock, ids, notifier, work } = deps;
    this.work = work;
    // Guard state is changed inside units like the engine's own caches.
    work.onRollback(() => deps.guards.reload());
    this.settings = deps.settings;
    this.classified = new ClassifyAuditFolder(
      work,
      clock,
      () => this.settings.get().audit.classifyFoldMs,
    );
    this.rules = new RuleBook(store, work, ids);
    this.grants = new GrantBook(store, ids);
    this.grantUse = new GrantUse(this.grants, work, clock);
    this.policies = new ProjectPolicyMemo(deps.loadProjectPolicy);
    this.runInputs = new RunInputWatch(
      store,
      work,
      () => deps.protection?.resolver,
      deps.gitConfigIncludes,
    );
    this.controls = new AgentControls(store, work, notifier, (u, agent, reason) =>
      this.queue.cancelOpenOf(u, agent, reason),
    );
    this.policyTrust = new PolicyTrustBook(store, work);
    this.suggestions = new RuleSuggestions({
      store,
      work,
      clock,
      rules: this.rules,
      settings: () => this.settings.get(),
    });
    this.sessions = new SessionService({
      store,
      work,
      clock,
      ids,
      archive: deps.archive,
      graceMs: () => this.settings.get().sessions.graceMs,
      projectRoot: deps.loadProjectPolicy.projectRoot,
      publish: (event) => deps.bus.publish(event),
      spend: (s) => this.spendOf(s),
      suggestionsFor: (sessionId) => this.suggestions.list(sessionId).map(suggestionLine),
      onEnded: (u, s, status) => {
        if (status !== 'abandoned' && status !== 'active')
          this.applyEffects(u, s, deps.guards.sessionEnded(this.guardContext(s), status));
      },
    });
    this.queue = new ReviewQueue({
      store,
      work,
      clock,
      ids,
      grants: this.grants,
      notifier,
      defaultTimeoutMs: () => this.settings.get().requests.defaultTimeoutMs,
      maxQueuedPerSession: () => this.settings.get().requests.maxQueuedPerSession,
      addRule: (u, rule) => this.rules.addIn(u, rule),
      approvalHeld: (agent) => this.controls.approvalHeld(agent),
      onHumanDecision: (u, r, approved) => {
        const s = this.sessions.get(r.sessionId);
        if (approved) {
          this.runInputs.approved(u, r);
          // A relayed tool call notes its writes when the gate lets it through (tool-gate.ts).
          if (r.context?.tool === undefined) this.runInputs.noteWritesIn(u, s, [r], undefined);
        }
        this.applyEffects(u, s, deps.guards.recordDecision(this.guardContext(s), approved));
      },
      ladder: (session, p) => this.ladderApproval(session, p),
    });
  }

  /** A stated cost above `budgets.maxCostPerCallUsd` is invalid params, never spend. */
  assertCostCeiling(field: string, costUsd: number | undefined): void {
    const max = this.settings.get().budgets.maxCostPerCallUsd;
    if (costUsd === undefined || costUsd <= max) return;
    const message = `${field} ${costUsd} is above the per-call ceiling of $${max} (setting budgets.maxCostPerCallUsd)`;
    throw new GatehouseError(ErrorCode.InvalidParams, `invalid params: ${message}`, [
      { path: field, message },
    ]);
  }

  modeOf(session: SessionRow): Mode {
    if (this.controls.stateOf(session.agent) !== 'running') return 'paused';
    return this.deps.guards.mode(this.guardContext(session));
  }

  /** Audits and (after commit) publishes what a guard call or guard admin call changed. */
  applyEffects(
    u: Unit,
    session: { sessionId: string; agent: string } | undefined,
    effects: GuardEffects,
  ): void {
    for (const a of effects.audit) {
      u.audit(a.type, {
        ...(session ? { sessionId: session.sessionId, agent: session.agent } : {}),
        data: a.data,
      });
    }
    for (const e of effects.events) u.publish(e);
  }

  guardContext(s: SessionRow): GuardContext {
    return compact({
      sessionId: s.sessionId,
      agent: s.agent,
      project: s.project,
      noAutoLevel: s.project ? this.forbidsAutoLevel(s.project) : undefined,
    });
  }

  /**
   * Records that an agent classified an action (no savepoint): one audit entry, or a count
   * in the entry of the same classification moments ago (classify-folding.ts).
   */
  recordClassified(
    who: { sessionId: string; agent: string },
    action: string,
    result: Classification,
  ): void {
    this.classified.record(who, { action, tier: result.tier, rule: result.rule });
  }

  /** The synchronous part of an agent call: its project policy is looked up once. */
  inCall<T>(fn: () => T): T {
    return this.policies.inCall(fn);
  }

  canonicalProject(project: string): string {
    return this.deps.loadProjectPolicy.canonicalDir?.(project) ?? project;
  }

  /** A project whose policy file is broken gets no automatic level-ups either. */
  private forbidsAutoLevel(project: string): boolean {
    try {
      const policy = this.policies.get(project);
      // An edit (or deleting the file) cannot lift a freeze the person trusted.
      const trusted = policy
        ? this.policyTrust.trustedPolicyIfEdited(policy)
        : this.policyTrust.trustedPolicyFor(this.canonicalProject(project));
      return [policy, trusted].some((p) => p && !p.policy.automation.allow_auto_promotion);
    } catch {
      return true;
    }
  }

  /** The automation ladder's say on an `ask` action nobody has granted: through, or a human. */
  private ladderApproval(session: SessionRow, p: P<'RequestParams'>): Classification | undefined {
    const verdict = this.deps.guards.mayAutoApprove(
      this.guardContext(session),
      p.action,
      p.risk ?? 'medium',
    );
    if (!verdict.autoApprove) return undefined;
    return {
      tier: 'auto',
      rule: `ladder:level-${verdict.level}`,
      reason: `automation level ${verdict.level} lets low-risk ${p.action} through`,
    };
  }

  private spendOf(s: SessionRow): { costUsd: number; budgetRemainingPct?: number } {
    const spent = this.deps.guards.spent(this.guardContext(s));
    return compact({
      costUsd: Math.max(spent.session, s.costUsd),
      budgetRemainingPct: spent.budgetRemainingPct,
    });
  }

  /** What `classify` reports: a grant is named, never used (grant-use.ts). */
  decideTier(session: SessionRow, a: P<'ClassifyParams'>, cwd?: string): Classification {
    return this.grantUse.report(session, a, this.classifyForRequest(session, a, cwd));
  }

  /**
   * Lets a relayed tool call through when grants cover every asking action, using each up
   * in the same transaction that logs the call; `undefined` (nothing written) otherwise.
   */
  allowByGrants(
    session: SessionRow,
    asking: readonly { a: ActionDescription; c: Classification }[],
    log: P<'LogParams'>,
  ): GrantRecord[] | undefined {
    return this.grantUse.allow(session, asking, (u) => this.recordLog(u, session, log));
  }

  /** A `log` entry: the transcript line and its audit entry, in the caller's unit. */
  recordLog(u: Unit, session: SessionRow, p: P<'LogParams'>): void {
    u.transcript(
      session.sessionId,
      'log',
      p.description,
      compact({ type: p.type, tier: p.tier, details: p.details }),
    );
    u.audit('action.logged', {
      sessionId: session.sessionId,
      agent: session.agent,
      data: compact({ type: p.type, tier: p.tier }),
    });
  }

  /**
   * The path protection with the agent's working directory, made once per directory: every
   * call of an agent works in the same few. Bounded: it starts over when full.
   */
  private pathContextIn(cwd: string | undefined): PathContext | undefined {
    const protection = this.deps.protection;
    if (!protection) return undefined;
    // Keyed by the directory as given: no directory (undefined) is not the empty one.
    const known = this.pathContexts.get(cwd);
    if (known?.protection === protection) return known.paths;
    if (this.pathContexts.size >= 256) this.pathContexts.clear();
    const paths: PathContext = compact({ ...protection, cwd });
    this.pathContexts.set(cwd, { protection, paths });
    return paths;
  }

  /**
   * The classification of an action. `call`: the whole relayed tool call it is part of (the
   * watch sees a run-deciding file written in the same call, run-input-watch.ts).
   */
  classifyForRequest(
    session: SessionRow,
    a: P<'ClassifyParams'>,
    cwd?: string,
    call?: readonly ActionDescription[],
  ): Classification {
    const projectPolicy = session.project ? this.policies.get(session.project) : undefined;
    const paths = this.pathContextIn(cwd ?? session.project);
    const trust = this.policyTrust;
    const projectTrust = projectPolicy ? trust.trustOf(projectPolicy) : undefined;
    // Edited or deleted since trusted: the trusted content's restrictions still hold.
    const trustedProjectPolicy = projectPolicy
      ? trust.trustedPolicyIfEdited(projectPolicy)
      : session.project
        ? trust.trustedPolicyFor(this.canonicalProject(session.project))
        : undefined;
    if (projectPolicy) trust.observe(projectPolicy, session);
    const c = classifyAction(
      a,
      compact({
        project: session.project,
        projectPolicy,
        projectTrust,
        trustedProjectPolicy,
        rules: this.rules.list(),
        paths,
      }),
    );
    return this.runInputs.classify(session, a, c, call && compact({ actions: call, cwd }));
  }
}
