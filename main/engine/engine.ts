import type { z } from 'zod';
import type { Mode } from '../../shared/domain';
import type * as A from '../../shared/protocol/agent-methods';
import { PROTOCOL_VERSION, SERVER_NAME } from '../../shared/protocol/constants';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type { Clock } from '../../shared/clock';
import type { EventBus } from './event-bus';
import { actionFingerprint } from './fingerprint';
import { GrantBook } from './grants';
import type { GuardContext, GuardEffects, GuardPort } from './guard-port';
import type { IdSource } from './ids';
import { classifyAction, type Classification } from './policy/classifier';
import type { PathProtection } from './policy/path-port';
import type { ProjectPolicyLoader } from './policy/project-policy';
import { isProtectedRule } from './policy/protected-paths';
import { PolicyTrustBook } from './policy/trust-book';
import type { AgentNotifier, TranscriptArchive } from './ports';
import { ReviewQueue } from './review-queue';
import { AgentControls } from './controls';
import { RuleBook } from './rule-book';
import { RuleSuggestions, suggestionLine } from './rule-suggestions';
import { SessionService } from './sessions';
import { SettingsService } from './settings-service';
import type { EngineStore, SessionRow } from './store-port';
import { UnitOfWork, type Unit } from './unit-of-work';
import { compact } from './records';
import { gateToolCall } from './tool-gate';

export interface EngineDeps {
  store: EngineStore;
  bus: EventBus;
  clock: Clock;
  ids: IdSource;
  notifier: AgentNotifier;
  archive: TranscriptArchive;
  loadProjectPolicy: ProjectPolicyLoader;
  /** The runtime guardrails (breakers, budgets, safety switch, automation ladder). */
  guards: GuardPort;
  /** Gatehouse's own files and the user's secrets (protected-paths.ts); wired by core.ts. */
  protection?: PathProtection;
  version: string;
}

/** The identity of an agent connection after `hello`. */
export interface AgentCaller {
  sessionId: string;
  agent: string;
}

type P<K extends keyof typeof A> = (typeof A)[K] extends z.ZodType
  ? z.output<(typeof A)[K]>
  : never;

/**
 * The safety engine: the only writer of state. Every agent method of PROTOCOL.md lands here
 * after validation; every human decision too (through the admin service).
 */
export class Engine {
  readonly work: UnitOfWork;
  readonly sessions: SessionService;
  readonly queue: ReviewQueue;
  readonly grants: GrantBook;
  readonly rules: RuleBook;
  readonly settings: SettingsService;
  readonly controls: AgentControls;
  /** Which project policy files the person trusts, by content. */
  readonly policyTrust: PolicyTrustBook;
  /** "Make it a rule" suggestions from repeated approvals, computed on demand. */
  readonly suggestions: RuleSuggestions;

  constructor(readonly deps: EngineDeps) {
    const { store, bus, clock, ids, notifier } = deps;
    this.work = new UnitOfWork(store, bus, clock);
    // Guard state is changed inside units like the engine's own caches.
    this.work.onRollback(() => deps.guards.reload());
    this.settings = new SettingsService(store, this.work);
    this.rules = new RuleBook(store, this.work, ids);
    this.grants = new GrantBook(store, ids);
    this.controls = new AgentControls(store, this.work, notifier);
    this.policyTrust = new PolicyTrustBook(store, this.work);
    this.suggestions = new RuleSuggestions({
      store,
      work: this.work,
      clock,
      rules: this.rules,
      settings: () => this.settings.get(),
    });
    this.sessions = new SessionService({
      store,
      work: this.work,
      clock,
      ids,
      archive: deps.archive,
      graceMs: () => this.settings.get().sessions.graceMs,
      spend: (s) => this.spendOf(s),
      suggestionsFor: (sessionId) => this.suggestions.list(sessionId).map(suggestionLine),
      onEnded: (u, s, status) => {
        if (status !== 'abandoned' && status !== 'active')
          this.applyEffects(u, s, deps.guards.sessionEnded(this.guardContext(s), status));
      },
    });
    this.queue = new ReviewQueue({
      store,
      work: this.work,
      clock,
      ids,
      grants: this.grants,
      notifier,
      defaultTimeoutMs: () => this.settings.get().requests.defaultTimeoutMs,
      maxQueuedPerSession: () => this.settings.get().requests.maxQueuedPerSession,
      addRule: (u, rule) => this.rules.addIn(u, rule),
      onHumanDecision: (u, r, approved) => {
        const s = this.sessions.get(r.sessionId);
        this.applyEffects(u, s, deps.guards.recordDecision(this.guardContext(s), approved));
      },
      ladder: (session, p) => this.ladderApproval(session, p),
    });
  }

  /** Picks up where a previous run stopped: waits' timeouts and abandoned sessions. */
  start(): void {
    this.queue.recover();
    this.sessions.recover();
  }

  stop(): void {
    this.work.flush();
    this.deps.guards.dispose();
    this.queue.dispose();
    this.sessions.dispose();
  }

  hello(p: P<'HelloParams'>): { session: SessionRow; result: z.output<typeof A.HelloResult> } {
    const session = this.sessions.open(p);
    return {
      session,
      result: {
        sessionId: session.sessionId,
        protocol: PROTOCOL_VERSION,
        server: { name: SERVER_NAME, version: this.deps.version },
        mode: this.modeOf(session),
      },
    };
  }

  classify(c: AgentCaller, p: P<'ClassifyParams'>): Classification {
    const session = this.sessions.get(c.sessionId);
    const result = this.decideTier(session, p);
    this.work.record('action.classified', {
      sessionId: c.sessionId,
      agent: c.agent,
      data: { action: p.action, tier: result.tier, rule: result.rule },
    });
    return result;
  }

  request(c: AgentCaller, p: P<'RequestParams'>) {
    this.controls.assertRunning(c.agent);
    const session = this.sessions.get(c.sessionId);
    return this.queue.file(session, p, this.classifyForRequest(session, p));
  }

  /** One native tool call relayed by an agent adapter (tool-gate.ts). */
  gate(c: AgentCaller, p: P<'GateParams'>): Promise<z.output<typeof A.GateResult>> {
    const shell = this.deps.protection?.shell;
    if (!shell) throw new Error('gate needs the shell parser (EngineDeps.protection)');
    return gateToolCall(p, {
      shell,
      check: (tool) => this.check(c, { tool }),
      classify: (a, cwd) => {
        const session = this.sessions.get(c.sessionId);
        const result = this.decideTier(session, a, cwd);
        this.work.record('action.classified', {
          sessionId: c.sessionId,
          agent: c.agent,
          data: { action: a.action, tier: result.tier, rule: result.rule },
        });
        return result;
      },
      log: (type, description, details) =>
        void this.log(c, { type, description, tier: 'auto', details }),
      request: (r, cwd) => {
        this.controls.assertRunning(c.agent);
        const session = this.sessions.get(c.sessionId);
        return this.queue.file(session, r, this.classifyForRequest(session, r, cwd));
      },
    });
  }

  await(c: AgentCaller, p: P<'AwaitParams'>) {
    return this.queue.await(p.requestId, p.timeoutMs, c.sessionId);
  }

  cancel(c: AgentCaller, p: P<'CancelParams'>): { status: 'cancelled' } {
    this.queue.cancel(p.requestId, c.sessionId);
    return { status: 'cancelled' };
  }

  log(c: AgentCaller, p: P<'LogParams'>): { ok: true } {
    const session = this.sessions.get(c.sessionId);
    this.work.run((u) => {
      u.transcript(
        c.sessionId,
        'log',
        p.description,
        compact({ type: p.type, tier: p.tier, details: p.details }),
      );
      u.audit('action.logged', {
        sessionId: c.sessionId,
        agent: c.agent,
        data: compact({ type: p.type, tier: p.tier }),
      });
      // The protocol has no field for widening a task; a logged scope change is how an
      // agent proposes one, and the run breaker's scope freeze answers it.
      if (p.type === 'scope_change') {
        this.applyEffects(
          u,
          session,
          this.deps.guards.proposeScopeChange(this.guardContext(session), p.description),
        );
      }
    });
    return { ok: true };
  }

  usage(c: AgentCaller, p: P<'UsageParams'>): z.output<typeof A.UsageResult> {
    this.assertCostCeiling('costUsd', p.costUsd);
    const session = this.sessions.get(c.sessionId);
    return this.work.run((u) => {
      const out = this.deps.guards.usage(this.guardContext(session), p);
      this.applyEffects(u, session, out);
      if (out.costUsd > 0) {
        this.sessions.update(session.sessionId, {
          costUsd: this.sessions.get(session.sessionId).costUsd + out.costUsd,
        });
        this.grants.addSpend(u, session.agent, out.costUsd);
      }
      u.transcript(
        session.sessionId,
        'usage',
        `${p.model}: ${p.inputTokens} in, ${p.outputTokens} out, $${out.costUsd.toFixed(4)}`,
        compact({ model: p.model, costUsd: out.costUsd, phase: p.phase, operation: p.operation }),
      );
      return { costUsd: out.costUsd, spent: out.spent, verdicts: out.verdicts };
    });
  }

  check(c: AgentCaller, p: P<'CheckParams'>): z.output<typeof A.CheckResult> {
    const state = this.controls.stateOf(c.agent);
    if (state !== 'running') {
      return {
        allowed: false,
        mode: 'paused',
        verdicts: [
          {
            breaker: 'kill_switch',
            state: 'open',
            tripped: true,
            warning: false,
            reason: state === 'killed' ? 'AGENT_KILLED' : 'AGENT_PAUSED',
            current: 1,
            threshold: 1,
            suggestion: 'Stop and wait for a human to resume this agent.',
          },
        ],
      };
    }
    this.assertCostCeiling('estimatedCostUsd', p.estimatedCostUsd);
    const session = this.sessions.get(c.sessionId);
    return this.work.run((u) => {
      const out = this.deps.guards.check(this.guardContext(session), p);
      this.applyEffects(u, session, out);
      return compact({
        allowed: out.allowed,
        mode: out.mode,
        verdicts: out.verdicts,
        restrictions: out.restrictions,
      });
    });
  }

  outcome(c: AgentCaller, p: P<'OutcomeParams'>): z.output<typeof A.OutcomeResult> {
    const session = this.sessions.get(c.sessionId);
    return this.work.run((u) => {
      const out = this.deps.guards.outcome(this.guardContext(session), p);
      this.applyEffects(u, session, out);
      const detail = p.message ? ` (${p.message.slice(0, 200)})` : '';
      u.transcript(
        c.sessionId,
        'outcome',
        `${p.ok ? 'Succeeded' : 'Failed'}: ${p.source}${detail}`,
      );
      return { verdicts: out.verdicts };
    });
  }

  end(c: AgentCaller, p: P<'EndParams'>) {
    return { summary: this.sessions.end(c.sessionId, p.status) };
  }

  /** A stated cost above `budgets.maxCostPerCallUsd` is invalid params, never spend. */
  private assertCostCeiling(field: string, costUsd: number | undefined): void {
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

  private guardContext(s: SessionRow): GuardContext {
    return compact({
      sessionId: s.sessionId,
      agent: s.agent,
      project: s.project,
      noAutoLevel: s.project ? this.forbidsAutoLevel(s.project) : undefined,
    });
  }

  private canonicalProject(project: string): string {
    return this.deps.loadProjectPolicy.canonicalDir?.(project) ?? project;
  }

  /** A project whose policy file is broken gets no automatic level-ups either. */
  private forbidsAutoLevel(project: string): boolean {
    try {
      const policy = this.deps.loadProjectPolicy(project);
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

  private decideTier(session: SessionRow, a: P<'ClassifyParams'>, cwd?: string): Classification {
    const c = this.classifyForRequest(session, a, cwd);
    // Protected actions ask whatever grants say (issue 9).
    if (c.tier === 'auto' || isProtectedRule(c.rule)) return c;
    const grant = this.grants.find(
      {
        agent: session.agent,
        sessionId: session.sessionId,
        project: session.project,
        action: a.action,
        fingerprint: actionFingerprint(a),
        description: a,
      },
      this.deps.clock.now(),
    );
    return grant
      ? {
          tier: 'auto',
          rule: `grant:${grant.grantId}`,
          reason: `covered by a ${grant.kind.replace('_', ' ')} grant`,
        }
      : c;
  }

  private classifyForRequest(
    session: SessionRow,
    a: P<'ClassifyParams'>,
    cwd?: string,
  ): Classification {
    const projectPolicy = session.project
      ? this.deps.loadProjectPolicy(session.project)
      : undefined;
    const protection = this.deps.protection;
    const paths = protection ? compact({ ...protection, cwd: cwd ?? session.project }) : undefined;
    const trust = this.policyTrust;
    const projectTrust = projectPolicy ? trust.trustOf(projectPolicy) : undefined;
    // Edited or deleted since trusted: the trusted content's restrictions still hold.
    const trustedProjectPolicy = projectPolicy
      ? trust.trustedPolicyIfEdited(projectPolicy)
      : session.project
        ? trust.trustedPolicyFor(this.canonicalProject(session.project))
        : undefined;
    if (projectPolicy) trust.observe(projectPolicy, session);
    return classifyAction(
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
  }
}
