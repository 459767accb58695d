import type { Verdict } from '../../../shared/domain';
import type { BreakerRow } from '../../../shared/protocol/guard-methods';
import type { GuardContext } from './guard-port';
import type { ErrorRateBreaker } from './error-rate-breaker';
import {
  breakerName,
  type CheckCall,
  type DescribeAsk,
  type Guard,
  type GuardDescription,
  type UsageCall,
} from './guard';
import type { IterationBreaker } from './iteration-breaker';
import type { RunBreaker, RunConfig } from './run-breaker';
import type { ModeChange, Restrictions, SafetySwitch, SafetySwitchConfig } from './safety-switch';
import type { SessionGuards, SessionPart, SessionStates, SessionParts } from './session-guards';
import type { StuckDetector } from './stuck-detector';
import type { TimeBreaker } from './time-breaker';

/**
 * The guards whose state is per session, each bound to its rule and to its part of the
 * session's state. Each resets by putting a fresh part in place, and lists in the breakers
 * view the sessions its rule says are stopped.
 */

type RowOf<P extends SessionPart> = (
  state: SessionParts[P],
  now: number,
) => Omit<BreakerRow, 'name' | 'kind'> | undefined;

/** What every session-part guard shares: its kind, its part, and the reset. */
function sessionPart(
  kind: string,
  part: SessionPart,
  sessions: SessionStates,
): Pick<Guard, 'kind' | 'part' | 'reset'> {
  return {
    kind,
    part,
    reset(sessionId) {
      if (!sessions.known(sessionId)) return false;
      const session = sessions.get(sessionId);
      session.reset(part);
      session.flush();
      return true;
    },
  };
}

/** A `describe` that lists one row per stored session the rule reports on. */
function rowsOf<P extends SessionPart>(
  kind: BreakerRow['kind'],
  part: P,
  rowOf: RowOf<P>,
): (ask: DescribeAsk) => GuardDescription {
  return (ask) => {
    if (ask.view !== 'breakers') return {};
    const breakers: BreakerRow[] = [];
    for (const { sessionId, state } of ask.stored(part)) {
      const row = rowOf(state, ask.now);
      if (row) breakers.push({ name: breakerName(kind, sessionId), kind, ...row });
    }
    return { breakers };
  };
}

/** The run breaker: a stopped run refuses every check until a human resets it. */
export interface RunGuard extends Guard {
  proposeScopeChange(session: SessionGuards, description: string): Verdict[];
  kill(session: SessionGuards, reason: string): Verdict[];
}

export function runGuard(
  rule: RunBreaker,
  config: () => RunConfig,
  sessions: SessionStates,
): RunGuard {
  return {
    ...sessionPart('run', 'run', sessions),
    describe: rowsOf('run', 'run', ({ stopped }) =>
      stopped
        ? {
            state: 'open',
            reason: stopped.reason,
            current: stopped.current,
            threshold: stopped.threshold,
            detail: stopped.message,
          }
        : undefined,
    ),
    check: ({ session }) => rule.check(session.get('run')),
    onOutcome: ({ session, params: p }) =>
      // Only a failure, or a success after failures, changes anything worth a write.
      !p.ok || session.get('run').attempts > 0
        ? rule.recordOutcome(session.touch('run'), p.ok, p.source, p.message)
        : [],
    onUsage: ({ session, params: p }) => {
      // Token counts only matter (and are only written) when a token budget is set.
      const { tokensPerStep, tokensPerTask } = config();
      return tokensPerStep > 0 || tokensPerTask > 0
        ? rule.recordTokens(session.touch('run'), p.inputTokens + p.outputTokens)
        : [];
    },
    proposeScopeChange: (session, description) =>
      rule.proposeScopeChange(session.touch('run'), description),
    kill: (session, reason) => rule.kill(session.touch('run'), reason),
  };
}

export function iterationGuard(rule: IterationBreaker, sessions: SessionStates): Guard {
  return {
    ...sessionPart('iteration', 'iteration', sessions),
    // Only checks that declare a loop turn count (and write).
    check: ({ session, params: p }) =>
      p.iteration !== undefined || p.progress !== undefined
        ? rule.check(session.touch('iteration'), {
            phase: p.phase ?? 'default',
            iteration: p.iteration,
            progress: p.progress,
          })
        : [],
  };
}

export function timeGuard(rule: TimeBreaker, sessions: SessionStates): Guard {
  return {
    ...sessionPart('time', 'time', sessions),
    check: ({ session, params: p, now }) => {
      // A phase's clock starts (and is written) at the first check that names it.
      const time =
        p.phase !== undefined && !(p.phase in session.get('time').phaseStartedAt)
          ? session.touch('time')
          : session.get('time');
      return rule.check(time, now, p.phase);
    },
  };
}

export function errorRateGuard(rule: ErrorRateBreaker, sessions: SessionStates): Guard {
  return {
    ...sessionPart('error_rate', 'errors', sessions),
    describe: rowsOf('error_rate', 'errors', (state, now) => rule.row(state, now)),
    check: ({ session, now }) => rule.check(session.get('errors'), now),
    onOutcome: ({ session, params: p, now }) => {
      const errors = session.touch('errors');
      rule.record(errors, now, p.ok);
      return rule.check(errors, now);
    },
  };
}

export function stuckGuard(rule: StuckDetector, sessions: SessionStates): Guard {
  return {
    ...sessionPart('stuck', 'stuck', sessions),
    describe: rowsOf('stuck', 'stuck', ({ latch }, now) =>
      latch && latch.until > now
        ? {
            state: 'open',
            reason: latch.reason,
            current: latch.current,
            threshold: latch.threshold,
            retryInMs: latch.until - now,
            detail: latch.detail,
          }
        : undefined,
    ),
    check: ({ session, now }) => rule.check(session.get('stuck'), now),
    onOutcome: ({ session, params: p, now }) =>
      // A success says something only with its output.
      p.ok && p.output === undefined
        ? []
        : rule.record(session.touch('stuck'), now, {
            ok: p.ok,
            output: p.output,
            message: p.message,
            tool: p.tool,
          }),
  };
}

/** The safety switch: conservative mode, entered on errors or an exhausted budget. */
export interface SafetyGuard extends Guard {
  mode(session: SessionGuards): ModeChange['mode'];
  restrictions(): Restrictions;
  /** A human's "try again" on a session in conservative mode; undefined for an unknown session. */
  recover(
    ctx: GuardContext,
  ):
    | { recovered: boolean; mode: ModeChange['mode']; change?: ModeChange; reason?: string }
    | undefined;
}

/** A budget of the session or the day (not one operation's cap) is used up. */
const exhaustsBudget = (v: Verdict): boolean =>
  v.breaker === 'budget' && v.tripped && v.reason !== 'OPERATION_BUDGET_EXCEEDED';

export function safetyGuard(
  rule: SafetySwitch,
  config: () => SafetySwitchConfig,
  sessions: SessionStates,
  /** The smallest share left of the session's budgets, in percent. */
  budgetLeft: (ctx: GuardContext) => number | undefined,
): SafetyGuard {
  /** Runs after the budget guard, so it sees the budget's verdicts of the same call. */
  const onBudget = (call: CheckCall | UsageCall): void => {
    if (call.verdicts.some(exhaustsBudget)) {
      call.change = rule.onBudgetExhausted(call.session.touch('safety'), call.now);
    }
  };
  return {
    ...sessionPart('safety_switch', 'safety', sessions),
    describe: rowsOf('safety_switch', 'safety', (sw) =>
      sw.mode === 'conservative'
        ? {
            state: 'open',
            reason: sw.reason,
            current: sw.errors.length,
            threshold: config().recentErrors,
            detail: 'conservative mode',
            restrictions: rule.restrictions(),
          }
        : undefined,
    ),
    check: (call) => {
      const verdicts = rule.check(call.session.get('safety'), call.params.tool);
      onBudget(call);
      return verdicts;
    },
    onUsage: (call) => {
      onBudget(call);
      return [];
    },
    onOutcome: (call) => {
      const { session, params: p } = call;
      const sw = session.get('safety');
      // Only a failure, or any outcome outside the quiet normal state, is worth a write.
      const state =
        !p.ok || sw.mode !== 'normal' || sw.errors.length ? session.touch('safety') : sw;
      call.change = rule.onOutcome(
        state,
        call.now,
        {
          ok: p.ok,
          status: call.status,
          message: p.message,
          provider: p.provider,
          source: p.source,
        },
        budgetLeft(call.ctx),
      );
      return [];
    },
    mode: (session) => session.get('safety').mode,
    restrictions: () => rule.restrictions(),
    recover: (ctx) => {
      if (!sessions.known(ctx.sessionId)) return undefined;
      const session = sessions.get(ctx.sessionId);
      const state = session.touch('safety');
      const { recovered, change, reason } = rule.recoverManually(state, budgetLeft(ctx));
      session.flush();
      return { recovered, mode: state.mode, ...(change && { change }), ...(reason && { reason }) };
    },
  };
}
