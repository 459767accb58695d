import type { Verdict } from '../../../shared/domain';
import { fingerprint } from './output-fingerprint';
import { minutes, tripped, warning } from './verdict';
import { own, setOwn } from '../../../shared/own';

export interface StuckConfig {
  enabled: boolean;
  repetitionThreshold: number;
  errorRepetitionThreshold: number;
  windowMs: number;
  maxHistory: number;
  maxCyclePeriod: number;
  cycleRepeats: number;
  pollingTools: string[];
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** One remembered outcome: time, fingerprint, 1 for an error. */
type Entry = [number, string, 0 | 1];

/** Per-session state, plain JSON. */
export interface StuckState {
  history: Entry[];
  /** Set when the session was found stuck; `check` refuses until it clears. */
  latch?: { reason: string; current: number; threshold: number; until: number; detail: string };
  /** Per polling tool: the last fingerprint and how many times in a row it came back. */
  polls: Record<string, { fp: string; count: number }>;
}

export const newStuckState = (): StuckState => ({ history: [], polls: {} });

export interface StuckInput {
  ok: boolean;
  output?: string | undefined;
  message?: string | undefined;
  tool?: string | undefined;
}

/**
 * Finds agents going round in circles (seed 002): the same output N times, the same error N
 * times, and short cycles (A-B-A-B, A-B-C-A-B-C) over normalised fingerprints, so that ids,
 * timestamps and counters do not hide a loop. Tools declared as polling are exempt; they get
 * a back-off suggestion instead.
 */
export class StuckDetector {
  constructor(private readonly config: () => StuckConfig) {}

  record(state: StuckState, now: number, input: StuckInput): Verdict[] {
    const config = this.config();
    if (!config.enabled) return [];
    const text = input.ok ? input.output : (input.message ?? input.output ?? '');
    if (text === undefined) return [];
    const fp = `${input.ok ? 'o' : 'e'}:${fingerprint(text)}`;

    if (input.tool !== undefined && config.pollingTools.includes(input.tool)) {
      return this.poll(state, input.tool, fp);
    }

    const history = state.history;
    const since = now - config.windowMs;
    let drop = 0;
    while (drop < history.length && history[drop]![0] <= since) drop++;
    history.splice(0, Math.max(drop, history.length + 1 - config.maxHistory));
    history.push([now, fp, input.ok ? 0 : 1]);

    const found = this.detect(history, config);
    if (!found) {
      // Something new came out: whatever loop it was in, it left it.
      if (state.latch && history.length > 1 && history[history.length - 2]![1] !== fp) {
        delete state.latch;
      }
      return [];
    }
    state.latch = { ...found, until: now + config.windowMs };
    return [this.verdictOf(state.latch)];
  }

  /** A session found stuck stays stopped until its window passes or a human resets it. */
  check(state: StuckState, now: number): Verdict[] {
    if (!state.latch) return [];
    if (now >= state.latch.until) {
      delete state.latch;
      return [];
    }
    return [this.verdictOf(state.latch)];
  }

  reset(state: StuckState): void {
    state.history = [];
    state.polls = {};
    delete state.latch;
  }

  private verdictOf(latch: NonNullable<StuckState['latch']>): Verdict {
    return tripped('stuck', latch.reason, latch.current, latch.threshold, latch.detail);
  }

  private detect(
    history: Entry[],
    config: StuckConfig,
  ): Omit<NonNullable<StuckState['latch']>, 'until'> | undefined {
    const last = history[history.length - 1]!;
    let run = 1;
    while (run < history.length && history[history.length - 1 - run]![1] === last[1]) run++;
    const isError = last[2] === 1;
    const threshold = isError ? config.errorRepetitionThreshold : config.repetitionThreshold;
    if (run >= threshold) {
      const what = isError ? 'error' : 'output';
      return {
        reason: isError ? 'REPEATED_ERROR' : 'REPEATED_OUTPUT',
        current: run,
        threshold,
        detail: `The same ${what} came back ${run} times in a row. Change the approach or ask a human.`,
      };
    }
    for (let period = 2; period <= config.maxCyclePeriod; period++) {
      const span = period * config.cycleRepeats;
      if (history.length < span) break;
      const tail = history.slice(-span).map((e) => e[1]);
      if (new Set(tail.slice(0, period)).size < 2) continue;
      let cycles = true;
      for (let i = period; i < span && cycles; i++) cycles = tail[i] === tail[i - period];
      if (cycles) {
        const letters = tail.slice(0, period).map((_, i) => String.fromCharCode(65 + i));
        return {
          reason: 'OSCILLATION_DETECTED',
          current: period,
          threshold: config.cycleRepeats,
          detail: `Outcomes cycle with period ${period} (${[...letters, ...letters].join('-')}), ${config.cycleRepeats} turns. Break the cycle or ask a human.`,
        };
      }
    }
    return undefined;
  }

  private poll(state: StuckState, tool: string, fp: string): Verdict[] {
    const config = this.config();
    const entry = own(state.polls, tool);
    const count = entry && entry.fp === fp ? entry.count + 1 : 1;
    setOwn(state.polls, tool, { fp, count });
    if (count < config.repetitionThreshold) return [];
    const backoff = Math.min(
      config.backoffMaxMs,
      config.backoffBaseMs * 2 ** (count - config.repetitionThreshold),
    );
    return [
      warning(
        'stuck',
        'POLLING_BACKOFF',
        count,
        config.repetitionThreshold,
        `${tool} returned the same result ${count} times; wait ${minutes(backoff)} before polling again.`,
      ),
    ];
  }
}
