import type { z } from 'zod';
import type { Mode } from '../../shared/domain';
import type * as A from '../../shared/protocol/agent-methods';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type { Clock } from '../../shared/clock';
import type { CallPlace, GrantUse } from './requests/grant-use';
import type { GuardContext, GuardEffects, GuardPort } from './guards/guard-port';
import { ClassifyAuditFolder } from './requests/classify-folding';
import { classifyAction, type ActionDescription, type Classification } from './policy/classifier';
import type { PathProtection } from './policy/path-port';
import { wordDirectories, type PathContext } from './policy/protected-paths';
import type { ProjectPolicyLoader } from './policy/project-policy';
import { ProjectPolicyMemo } from './policy/project-policy-memo';
import type { PolicyTrustBook } from './policy/trust-book';
import type { AgentControls } from './controls/controls';
import type { RuleBook } from './policy/rule-book';
import { shadowDifferences, type TeamPolicySource, type TeamPolicyView } from './policy/team-rules';
import type { RunInputWatch } from './policy/run-input-watch';
import type { SettingsSource } from './kernel/settings-service';
import type { GrantRecord } from './requests/requests-store';
import type { SessionRow } from './sessions/sessions-store';
import type { Unit, UnitOfWork } from './kernel/unit-of-work';
import { compact } from './kernel/records';
import { ruleOf } from '../../shared/provenance';

export type P<K extends keyof typeof A> = (typeof A)[K] extends z.ZodType
  ? z.output<(typeof A)[K]>
  : never;

/** What the logic both sides of the engine share works with (built by build-engine.ts). */
export interface EngineCoreParts {
  clock: Clock;
  work: UnitOfWork;
  settings: SettingsSource;
  /** The runtime guardrails (breakers, budgets, safety switch, automation ladder). */
  guards: GuardPort;
  controls: AgentControls;
  rules: RuleBook;
  /** Which project policy files the person trusts, by content. */
  policyTrust: PolicyTrustBook;
  /** Files that decide what a test or git command runs, changed since the last approved run. */
  runInputs: RunInputWatch;
  /** Grants where they settle a call outside the review queue. */
  grantUse: GrantUse;
  loadProjectPolicy: ProjectPolicyLoader;
  /** Gatehouse's own files and the user's secrets (protected-paths.ts); wired by core.ts. */
  protection?: PathProtection | undefined;
  /** The team policy from the hub (main/hub-link/team-policy-book.ts); absent, none. */
  team?: TeamPolicySource | undefined;
}

/** A shadow difference is recorded once per call: `classify`, then `request`, see it twice. */
const SHADOW_REPEAT_MS = 5_000;

/**
 * The logic both sides of the engine share: classification, the guard context, applying what
 * the guardrails return, logging. It holds no service it does not use itself; the services
 * are composed once, in build-engine.ts.
 */
export class EngineCore {
  /** Counts repeated identical classifications into one audit entry. */
  private readonly classified: ClassifyAuditFolder;
  /** The project policy, looked up once per agent call. */
  private readonly policies: ProjectPolicyMemo;
  /** When each shadow difference was last recorded (see SHADOW_REPEAT_MS). */
  private readonly shadowSeen = new Map<string, number>();
  private readonly pathContexts = new Map<
    string | undefined,
    { protection: PathProtection; paths: PathContext }
  >();

  constructor(private readonly parts: EngineCoreParts) {
    this.classified = new ClassifyAuditFolder(
      parts.work,
      parts.clock,
      () => parts.settings.get().audit.classifyFoldMs,
    );
    this.policies = new ProjectPolicyMemo(parts.loadProjectPolicy);
  }

  /** A stated cost above `budgets.maxCostPerCallUsd` is invalid params, never spend. */
  assertCostCeiling(field: string, costUsd: number | undefined): void {
    const max = this.parts.settings.get().budgets.maxCostPerCallUsd;
    if (costUsd === undefined || costUsd <= max) return;
    const message = `${field} ${costUsd} is above the per-call ceiling of $${max} (setting budgets.maxCostPerCallUsd)`;
    throw new GatehouseError(ErrorCode.InvalidParams, `invalid params: ${message}`, [
      { path: field, message },
    ]);
  }

  modeOf(session: SessionRow): Mode {
    if (this.parts.controls.stateOf(session.agent) !== 'running') return 'paused';
    return this.parts.guards.mode(this.guardContext(session));
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
    const project = s.project;
    return compact({
      sessionId: s.sessionId,
      agent: s.agent,
      project,
      forbidsAutoLevel: project === undefined ? undefined : () => this.forbidsAutoLevel(project),
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

  /** Writes the classification counts still held in memory (before the trail is read). */
  writeClassifiedCounts(): void {
    this.classified.flush();
  }

  /** Writes the counts held in memory and stops their timer (the engine stops). */
  stopClassifiedCounts(): void {
    this.classified.flush();
    this.classified.dispose();
  }

  /** The synchronous part of an agent call: its project policy is looked up once. */
  inCall<T>(fn: () => T): T {
    return this.policies.inCall(fn);
  }

  canonicalProject(project: string): string {
    return this.parts.loadProjectPolicy.canonicalDir?.(project) ?? project;
  }

  /** A project whose policy file is broken gets no automatic level-ups either. */
  private forbidsAutoLevel(project: string): boolean {
    try {
      const policy = this.policies.get(project);
      // An edit (or deleting the file) cannot lift a freeze the person trusted.
      const trusted = policy
        ? this.parts.policyTrust.trustedPolicyIfEdited(policy)
        : this.parts.policyTrust.trustedPolicyFor(this.canonicalProject(project));
      return [policy, trusted].some((p) => p && !p.policy.automation.allow_auto_promotion);
    } catch {
      return true;
    }
  }

  /** The automation ladder's say on an `ask` action nobody has granted: through, or a human. */
  ladderApproval(session: SessionRow, p: P<'RequestParams'>): Classification | undefined {
    const verdict = this.parts.guards.mayAutoApprove(
      this.guardContext(session),
      p.action,
      p.risk ?? 'medium',
    );
    if (!verdict.autoApprove) return undefined;
    return {
      tier: 'auto',
      rule: ruleOf({ kind: 'ladder', level: verdict.level }),
      reason: `automation level ${verdict.level} lets low-risk ${p.action} through`,
    };
  }

  spendOf(s: SessionRow): { costUsd: number; budgetRemainingPct?: number | undefined } {
    const spent = this.parts.guards.spent(this.guardContext(s));
    return compact({
      costUsd: Math.max(spent.session, s.costUsd),
      budgetRemainingPct: spent.budgetRemainingPct,
    });
  }

  /** What `classify` reports: a grant is named, never used (grant-use.ts). */
  decideTier(session: SessionRow, a: P<'ClassifyParams'>, cwd?: string): Classification {
    return this.parts.grantUse.report(session, a, this.classifyForRequest(session, a, cwd));
  }

  /**
   * Lets a relayed tool call through when grants cover every asking action, using each up
   * in the same transaction that logs the call; `undefined` (nothing written) otherwise.
   * `runsIn` is the directory the call runs in (a late approval covers it only there).
   */
  allowByGrants(
    session: SessionRow,
    asking: readonly { a: ActionDescription; c: Classification }[],
    log: P<'LogParams'>,
    runsIn: string | undefined,
  ): GrantRecord[] | undefined {
    return this.parts.grantUse.allow(
      session,
      asking.map((x) => ({ ...x, at: this.callPlace(session, x.a, runsIn) })),
      (u) => this.recordLog(u, session, log),
    );
  }

  /**
   * Where a relayed call runs and the directories its action's relative words are opened in
   * (its run directory and any its command `cd`s to), for grants (grant-use.ts CallPlace).
   */
  callPlace(session: SessionRow, a: ActionDescription, runsIn: string | undefined): CallPlace {
    const paths = this.pathContextIn(runsIn ?? session.project);
    return { runsIn, dirs: wordDirectories(a, { paths, project: session.project }) };
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
    const protection = this.parts.protection;
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
    const trust = this.parts.policyTrust;
    const projectTrust = projectPolicy ? trust.trustOf(projectPolicy) : undefined;
    // Edited or deleted since trusted: the trusted content's restrictions still hold.
    const trustedProjectPolicy = projectPolicy
      ? trust.trustedPolicyIfEdited(projectPolicy)
      : session.project
        ? trust.trustedPolicyFor(this.canonicalProject(session.project))
        : undefined;
    if (projectPolicy) trust.observe(projectPolicy, session);
    const team = this.parts.team?.current();
    const c = classifyAction(
      a,
      compact({
        project: session.project,
        projectPolicy,
        projectTrust,
        trustedProjectPolicy,
        rules: this.parts.rules.list(),
        team,
        paths,
      }),
    );
    const result = this.parts.runInputs.classify(
      session,
      a,
      c,
      call && compact({ actions: call, cwd }),
    );
    if (team?.rules.some((r) => r.mode === 'shadow'))
      this.recordShadow(
        session,
        a,
        result,
        team,
        wordDirectories(a, { paths, project: session.project }),
      );
    return result;
  }

  /** Tells the team policy of each shadow rule that would have decided this call otherwise. */
  private recordShadow(
    session: SessionRow,
    a: ActionDescription,
    c: Classification,
    team: TeamPolicyView,
    dirs: readonly string[] | undefined,
  ): void {
    const now = this.parts.clock.now();
    for (const d of shadowDifferences(a, c, team, session.project, dirs)) {
      const key = `${session.sessionId}\n${d.ruleId}\n${d.action}\n${d.summary}`;
      const seen = this.shadowSeen.get(key);
      if (seen !== undefined && now - seen < SHADOW_REPEAT_MS) continue;
      if (this.shadowSeen.size >= 1024) this.shadowSeen.clear();
      this.shadowSeen.set(key, now);
      this.parts.team?.shadowed({ ...d, at: now, agent: session.agent });
    }
  }
}
