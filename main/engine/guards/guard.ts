import type { z } from 'zod';
import type { Verdict } from '../../../shared/domain';
import type {
  CheckParams,
  OutcomeParams,
  UsageParams,
} from '../../../shared/protocol/agent-methods';
import type { BreakerRow, GuardsBudgetsResult } from '../../../shared/protocol/guard-methods';
import type { GuardContext } from './guard-port';
import type { ModeChange } from './safety-switch';
import type { SessionGuards, SessionPart, StoredPart } from './session-guards';

/**
 * One agent call as the guards see it. The chain hands the same object to every guard in
 * turn, so a guard can read what the guards before it said (`verdicts`).
 */
export interface GuardCall<P> {
  readonly ctx: GuardContext;
  readonly params: P;
  readonly now: number;
  /** The session's guard state; a guard `touch`es the part it changes, the chain flushes. */
  readonly session: SessionGuards;
  /** The verdicts of the guards before this one in the list. */
  readonly verdicts: readonly Verdict[];
  /** Set by the guard that changed the session's mode (the safety switch). */
  change?: ModeChange | undefined;
}

export type CheckCall = GuardCall<z.output<typeof CheckParams>>;
export type UsageCall = GuardCall<
  z.output<typeof UsageParams> & { costUsd: number; priceSource: string }
>;
export type OutcomeCall = GuardCall<z.output<typeof OutcomeParams>> & {
  /** The HTTP status of a failed call, from `httpStatus` or read from the message. */
  readonly status?: number;
};

/** What a person's view asks of the guards. */
export type DescribeAsk =
  | {
      view: 'breakers';
      now: number;
      /** The stored state of every session for one part (read once per view). */
      stored<P extends SessionPart>(part: P): StoredPart<P>[];
    }
  | { view: 'budgets'; now: number; days: number };

/** A guard's share of a view: its breaker rows, or the spend report. */
export interface GuardDescription {
  breakers?: BreakerRow[];
  budgets?: z.output<typeof GuardsBudgetsResult>;
}

/**
 * A runtime guard. The chain calls every guard of its list the same way, in order; a guard
 * implements only the members it has something to do in.
 */
export interface Guard {
  /** The kind in breaker names (`kind:id`) and rows: `run`, `tool`, `provider`, `budget` ... */
  readonly kind: string;
  /** For a guard with per-session state: the part it keeps (`session:ID` resets them all). */
  readonly part?: SessionPart;
  /** Verdicts for a call about to happen. */
  check?(call: CheckCall): Verdict[];
  /**
   * Runs only when no guard tripped, in list order, until one refuses: takes what the
   * admitted call holds (a half-open probe slot, a budget reservation).
   */
  admit?(call: CheckCall): Verdict[];
  onOutcome?(call: OutcomeCall): Verdict[];
  onUsage?(call: UsageCall): Verdict[];
  describe?(ask: DescribeAsk): GuardDescription;
  /** A human reset of the breaker `kind:id`; false when there is no such breaker. */
  reset?(id: string): boolean;
  /** Forgets in-memory state; it is read again from the store (after a rollback). */
  reload?(): void;
  /** Cancels timers (shutdown). */
  dispose?(): void;
}

/** The name of a breaker in views and resets. */
export const breakerName = (kind: string, id: string): string => `${kind}:${id}`;

/** Splits a breaker name at its first colon; undefined when it has no kind or no id. */
export function parseBreakerName(name: string): { kind: string; id: string } | undefined {
  const colon = name.indexOf(':');
  if (colon <= 0 || colon === name.length - 1) return undefined;
  return { kind: name.slice(0, colon), id: name.slice(colon + 1) };
}
