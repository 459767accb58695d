import type { z } from 'zod';
import type { GuardEffects } from './guard-port';
import { notFound } from '../../../shared/protocol/errors';
import type {
  BreakerRow,
  GuardsBudgetsResult,
  GuardsRecoverResult,
  GuardsResetResult,
  LadderResult,
} from '../../../shared/protocol/guard-methods';
import type { GuardChain } from './engine-guard-chain';
import { mergeEffects, resetEffects } from './guard-effects';

/** A mutating admin call's answer and what the engine must audit and publish. */
export interface AdminOutcome<R> {
  result: R;
  effects: GuardEffects;
}

/**
 * The admin side of the guardrails: budgets and spend, the breakers list, resets, manual
 * recovery from conservative mode, and the automation ladder. The admin service routes
 * `guards.*` and `ladder.*` to it; mutating calls return effects for the engine to audit
 * and publish in its transaction, like the guard chain's. The views are what each guard
 * describes of itself ({@link GuardChain.describe}).
 */
export class GuardAdmin {
  constructor(
    private readonly chain: GuardChain,
    /** The agent of a session, for per-agent budgets when recovering (from the sessions store). */
    private readonly agentOf: (sessionId: string) => string | undefined = () => undefined,
  ) {}

  budgets(params: { days: number }): z.output<typeof GuardsBudgetsResult> {
    const { budgets } = this.chain.describe(params.days);
    if (!budgets) throw new Error('no guard reports budgets');
    return budgets;
  }

  breakers(): { breakers: BreakerRow[] } {
    return { breakers: this.chain.describe().breakers };
  }

  reset(params: {
    name: string;
    falsePositive: boolean;
    project?: string | undefined;
  }): AdminOutcome<z.output<typeof GuardsResetResult>> {
    if (!this.chain.reset(params.name)) throw notFound(`breaker ${params.name}`);
    const effects = resetEffects([params.name], params.falsePositive);
    if (params.falsePositive) {
      mergeEffects(effects, this.chain.ladders.recordFalsePositive(params.project));
    }
    return { result: { reset: [params.name] }, effects };
  }

  /** A human's "try again" on a session in conservative mode. */
  recover(params: { sessionId: string }): AdminOutcome<z.output<typeof GuardsRecoverResult>> {
    const ctx = { sessionId: params.sessionId, agent: this.agentOf(params.sessionId) ?? '' };
    const out = this.chain.recover(ctx);
    if (!out) throw notFound(`session ${params.sessionId}`);
    const { effects, ...result } = out;
    return { result, effects };
  }

  ladder(params: { project?: string | undefined }): z.output<typeof LadderResult> {
    return this.chain.ladders.view(params.project);
  }

  setLadderLevel(params: {
    project?: string | undefined;
    level: number;
    reason?: string | undefined;
  }): AdminOutcome<z.output<typeof LadderResult>> {
    const reason = params.reason ?? 'set by a human';
    const effects = this.chain.ladders.setLevel(params.project, params.level, reason);
    return { result: this.ladder(params), effects };
  }
}
