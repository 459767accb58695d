import type { z } from 'zod';
import type { Risk } from '../../../shared/domain';
import type { LadderResult } from '../../../shared/protocol/guard-methods';
import { iso, type Clock } from '../../../shared/clock';
import type { GuardContext, GuardEffects } from './guard-port';
import {
  LADDER_LEVELS,
  type AutomationLadder,
  type LadderState,
  type LevelChange,
} from './automation-ladder';
import { noEffects } from './guard-effects';
import type { GuardStateStore } from './guard-state-store';

/** The ladder of agents that name no project. */
const GLOBAL_LADDER = '*';
const keyOf = (project?: string): string => project ?? GLOBAL_LADDER;

/**
 * The automation ladder of every project: its state (cached, stored under `ladder:<project>`),
 * what feeds it (finished sessions, human decisions, human resets of wrong trips), the
 * person's view of it, and the audit entries and events of a level change.
 */
export class ProjectLadders {
  private readonly ladders = new Map<string, LadderState>();

  constructor(
    private readonly rule: AutomationLadder,
    private readonly store: GuardStateStore,
    private readonly clock: Clock,
  ) {}

  /** The ladder of a project (`undefined`: agents without a project). */
  state(project?: string): LadderState {
    const key = keyOf(project);
    let state = this.ladders.get(key);
    if (!state) {
      state =
        (this.store.loadState(`ladder:${key}`) as LadderState | undefined) ?? this.rule.newState();
      this.ladders.set(key, state);
    }
    return state;
  }

  /** A session ended: counts a run. */
  sessionEnded(ctx: GuardContext, status: 'completed' | 'failed' | 'aborted'): GuardEffects {
    return this.change(ctx.project, (state, now) =>
      this.rule.recordRun(
        state,
        status === 'completed',
        now,
        ctx.project,
        ctx.forbidsAutoLevel?.() === true,
      ),
    );
  }

  /** A human decided a request; feeds the approval rate. */
  recordDecision(ctx: GuardContext, approved: boolean): GuardEffects {
    return this.change(ctx.project, (state, now) =>
      this.rule.recordDecision(
        state,
        approved,
        now,
        ctx.project,
        ctx.forbidsAutoLevel?.() === true,
      ),
    );
  }

  /** A human judged a trip wrong (a reset marked as a false positive). */
  recordFalsePositive(project?: string): GuardEffects {
    return this.change(project, (state, now) => this.rule.recordFalsePositive(state, now, project));
  }

  /** A human sets the level; always allowed, always audited. */
  setLevel(project: string | undefined, level: number, reason: string): GuardEffects {
    return this.change(project, (state, now) => this.rule.setLevel(state, level, now, reason));
  }

  /** Whether the project's level lets an `ask` action through without a human. */
  mayAutoApprove(
    ctx: GuardContext,
    action: string,
    risk: Risk,
  ): { autoApprove: boolean; notify: boolean; level: number } {
    const state = this.state(ctx.project);
    return { ...this.rule.mayAutoApprove(state, action, risk), level: state.level };
  }

  /** The person's view of a project's ladder (`ladder.get`). */
  view(project?: string): z.output<typeof LadderResult> {
    const state = this.state(project);
    const def = LADDER_LEVELS[state.level]!;
    const rates = this.rule.rates(state.metrics);
    const next = state.level + 1 < LADDER_LEVELS.length ? state.level + 1 : undefined;
    return {
      project: keyOf(project),
      level: state.level,
      name: def.name,
      description: def.description,
      autoChanges: this.rule.autoAllowed(project),
      metrics: {
        ...state.metrics,
        falsePositiveRate: rates.falsePositiveRate,
        approvalRate: rates.approvalRate,
      },
      ...(next !== undefined ? { next: { level: next, unmet: this.rule.unmet(state, next) } } : {}),
      history: state.history.map((h) => ({ ...h, at: iso(h.at) })),
    };
  }

  /** Drops the cached ladders; each is read again on next use (a rollback). */
  clear(): void {
    this.ladders.clear();
  }

  private change(
    project: string | undefined,
    apply: (state: LadderState, now: number) => LevelChange | undefined,
  ): GuardEffects {
    const state = this.state(project);
    const change = apply(state, this.clock.now());
    this.store.saveState(`ladder:${keyOf(project)}`, state);
    return change ? effectsOf(project, change) : noEffects();
  }
}

function effectsOf(project: string | undefined, change: LevelChange): GuardEffects {
  const data = { project: keyOf(project), ...change };
  return {
    audit: [{ type: 'ladder.changed', data }],
    events: [
      {
        type: 'ladder.changed',
        project: keyOf(project),
        from: change.from,
        to: change.to,
        by: change.by,
        reason: change.reason,
      },
    ],
  };
}
