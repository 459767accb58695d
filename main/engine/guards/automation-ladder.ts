import type { Risk } from '../../../shared/domain';

export interface LevelRequirements {
  minRuns: number;
  maxFalsePositiveRate: number;
  maxMissedCriticalBugs: number;
  minApprovalRate?: number;
}

export interface LevelDefinition {
  level: number;
  name: string;
  description: string;
  requirements: LevelRequirements;
}

/** The five levels of seed 000 and what each needs. */
export const LADDER_LEVELS: readonly LevelDefinition[] = [
  {
    level: 0,
    name: 'Manual',
    description: 'A human does everything; every ask action waits for a human.',
    requirements: {
      minRuns: 0,
      maxFalsePositiveRate: 1,
      maxMissedCriticalBugs: Number.POSITIVE_INFINITY,
    },
  },
  {
    level: 1,
    name: 'AI suggests',
    description: 'The agent suggests, a human decides every ask action.',
    requirements: { minRuns: 10, maxFalsePositiveRate: 0.5, maxMissedCriticalBugs: 5 },
  },
  {
    level: 2,
    name: 'AI acts',
    description:
      'Low-risk ask actions are auto-approved for later review; medium and higher still wait.',
    requirements: {
      minRuns: 50,
      maxFalsePositiveRate: 0.2,
      maxMissedCriticalBugs: 1,
      minApprovalRate: 0.8,
    },
  },
  {
    level: 3,
    name: 'AI autonomous',
    description: 'Low-risk ask actions are auto-approved and a human is notified.',
    requirements: {
      minRuns: 200,
      maxFalsePositiveRate: 0.05,
      maxMissedCriticalBugs: 0,
      minApprovalRate: 0.9,
    },
  },
  {
    level: 4,
    name: 'Full autonomy (low risk)',
    description:
      'Low-risk actions run on their own; medium and higher risk and production deploys always wait.',
    requirements: {
      minRuns: 500,
      maxFalsePositiveRate: 0.02,
      maxMissedCriticalBugs: 0,
      minApprovalRate: 0.95,
    },
  },
];

export interface LadderConfig {
  initialLevel: number;
  allowLevelUp: boolean;
  noAutoLevelProjects: string[];
  neverAutoActions: string[];
}

export interface LadderMetrics {
  totalRuns: number;
  successfulRuns: number;
  /** Guard trips a human judged wrong (a human reset of a tripped breaker). */
  falsePositives: number;
  missedCriticalBugs: number;
  decisions: number;
  approvals: number;
}

export interface LevelChange {
  at: number;
  from: number;
  to: number;
  by: 'auto' | 'human';
  reason: string;
}

/** One ladder (per project, or `*` for agents without one), plain JSON. */
export interface LadderState {
  level: number;
  metrics: LadderMetrics;
  history: LevelChange[];
}

const HISTORY_KEPT = 50;

/**
 * The automation ladder (seed 000): autonomy earned from measured outcomes. Metrics come
 * from finished sessions, human decisions and human resets of guard trips. A level-up
 * happens only when every requirement of the next level holds, one level at a time, and
 * never where the project forbids automatic changes; a level whose requirements stop
 * holding is left downwards. Every change is returned for the audit.
 */
export class AutomationLadder {
  constructor(private readonly config: () => LadderConfig) {}

  newState(): LadderState {
    return {
      level: this.config().initialLevel,
      metrics: {
        totalRuns: 0,
        successfulRuns: 0,
        falsePositives: 0,
        missedCriticalBugs: 0,
        decisions: 0,
        approvals: 0,
      },
      history: [],
    };
  }

  rates(m: LadderMetrics): {
    falsePositiveRate: number;
    approvalRate: number;
    successRate: number;
  } {
    return {
      falsePositiveRate: m.totalRuns ? m.falsePositives / m.totalRuns : 0,
      approvalRate: m.decisions ? m.approvals / m.decisions : 0,
      successRate: m.totalRuns ? m.successfulRuns / m.totalRuns : 0,
    };
  }

  /** The requirements of `level` that the metrics do not meet (empty: all hold). */
  unmet(state: LadderState, level: number): string[] {
    const def = LADDER_LEVELS[level];
    if (!def) return [`no level ${level}`];
    const m = state.metrics;
    const r = this.rates(m);
    const req = def.requirements;
    const out: string[] = [];
    if (m.totalRuns < req.minRuns) out.push(`runs ${m.totalRuns} < ${req.minRuns}`);
    if (r.falsePositiveRate > req.maxFalsePositiveRate)
      out.push(
        `false-positive rate ${r.falsePositiveRate.toFixed(2)} > ${req.maxFalsePositiveRate}`,
      );
    if (m.missedCriticalBugs > req.maxMissedCriticalBugs)
      out.push(`missed critical bugs ${m.missedCriticalBugs} > ${req.maxMissedCriticalBugs}`);
    if (req.minApprovalRate !== undefined && r.approvalRate < req.minApprovalRate)
      out.push(`approval rate ${r.approvalRate.toFixed(2)} < ${req.minApprovalRate}`);
    return out;
  }

  /**
   * Why the metrics fall below a level's quality bar, if they do. Only quality counts here
   * (missed critical bugs; the false-positive rate once there are enough runs to judge):
   * a level set by hand is not taken back just because few runs were measured yet.
   */
  private breached(state: LadderState, level: number): string | undefined {
    const req = LADDER_LEVELS[level]?.requirements;
    if (!req) return undefined;
    const m = state.metrics;
    if (m.missedCriticalBugs > req.maxMissedCriticalBugs) {
      return `missed critical bugs ${m.missedCriticalBugs} > ${req.maxMissedCriticalBugs}`;
    }
    const fp = this.rates(m).falsePositiveRate;
    if (m.totalRuns >= Math.max(req.minRuns, 10) && fp > req.maxFalsePositiveRate) {
      return `false-positive rate ${fp.toFixed(2)} > ${req.maxFalsePositiveRate}`;
    }
    return undefined;
  }

  recordRun(
    state: LadderState,
    success: boolean,
    now: number,
    project?: string,
    forbidden = false,
  ): LevelChange | undefined {
    state.metrics.totalRuns++;
    if (success) state.metrics.successfulRuns++;
    return this.evaluate(state, now, project, forbidden);
  }

  recordDecision(
    state: LadderState,
    approved: boolean,
    now: number,
    project?: string,
    forbidden = false,
  ): LevelChange | undefined {
    state.metrics.decisions++;
    if (approved) state.metrics.approvals++;
    return this.evaluate(state, now, project, forbidden);
  }

  recordFalsePositive(
    state: LadderState,
    now: number,
    project?: string,
    forbidden = false,
  ): LevelChange | undefined {
    state.metrics.falsePositives++;
    return this.evaluate(state, now, project, forbidden);
  }

  recordMissedCriticalBug(
    state: LadderState,
    now: number,
    project?: string,
    forbidden = false,
  ): LevelChange | undefined {
    state.metrics.missedCriticalBugs++;
    return this.evaluate(state, now, project, forbidden);
  }

  /** A human sets the level; always allowed, always audited. */
  setLevel(
    state: LadderState,
    level: number,
    now: number,
    reason: string,
  ): LevelChange | undefined {
    if (level === state.level) return undefined;
    return this.change(state, level, now, 'human', reason);
  }

  /** Whether automatic level changes are allowed for a project. */
  autoAllowed(project?: string, forbidden = false): boolean {
    const config = this.config();
    return (
      config.allowLevelUp &&
      !forbidden &&
      !(project !== undefined && config.noAutoLevelProjects.includes(project))
    );
  }

  /**
   * Whether an `ask` action may be approved without a human at the ladder's level: from
   * level 2, low-risk actions only, never the actions listed in `neverAutoActions`.
   */
  mayAutoApprove(
    state: LadderState,
    action: string,
    risk: Risk,
  ): { autoApprove: boolean; notify: boolean } {
    const autoApprove =
      state.level >= 2 && risk === 'low' && !this.config().neverAutoActions.includes(action);
    return { autoApprove, notify: autoApprove && state.level >= 3 };
  }

  private evaluate(
    state: LadderState,
    now: number,
    project: string | undefined,
    forbidden: boolean,
  ): LevelChange | undefined {
    if (!this.autoAllowed(project, forbidden)) return undefined;
    const breach = this.breached(state, state.level);
    if (state.level > 0 && breach) {
      let to = state.level - 1;
      while (to > 0 && this.breached(state, to)) to--;
      return this.change(state, to, now, 'auto', `level ${state.level} no longer holds: ${breach}`);
    }
    const next = state.level + 1;
    if (next < LADDER_LEVELS.length && this.unmet(state, next).length === 0) {
      return this.change(state, next, now, 'auto', `every requirement of level ${next} holds`);
    }
    return undefined;
  }

  private change(
    state: LadderState,
    to: number,
    now: number,
    by: 'auto' | 'human',
    reason: string,
  ): LevelChange {
    const change: LevelChange = { at: now, from: state.level, to, by, reason };
    state.level = to;
    state.history.push(change);
    if (state.history.length > HISTORY_KEPT) state.history.shift();
    return change;
  }
}
