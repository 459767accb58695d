import { describe, expect, it } from 'vitest';
import { ActionDeduplicator } from '../../../../../main/engine/guards/action-dedup';
import {
  ErrorRateBreaker,
  newErrorRateState,
} from '../../../../../main/engine/guards/error-rate-breaker';
import {
  IterationBreaker,
  newIterationState,
} from '../../../../../main/engine/guards/iteration-breaker';
import { TimeBreaker, newTimeState } from '../../../../../main/engine/guards/time-breaker';
import { GuardSettings } from '../../../../../shared/settings/guards';

const defaults = GuardSettings.parse({});

describe('IterationBreaker (seed 000 test plan)', () => {
  const breaker = new IterationBreaker(() => defaults.iteration);

  it('does not trip under the limit', () => {
    expect(
      breaker.check(newIterationState(), {
        phase: 'implementation',
        iteration: 10,
        progress: true,
      }),
    ).toEqual([]);
  });

  it('warns at 80% of the limit', () => {
    const [v] = breaker.check(newIterationState(), { phase: 'implementation', iteration: 40 });
    expect(v).toMatchObject({
      tripped: false,
      warning: true,
      reason: 'APPROACHING_ITERATION_LIMIT',
      current: 40,
      threshold: 50,
    });
  });

  it('trips over the limit', () => {
    const [v] = breaker.check(newIterationState(), { phase: 'implementation', iteration: 51 });
    expect(v).toMatchObject({
      tripped: true,
      reason: 'MAX_ITERATIONS_EXCEEDED',
      current: 51,
      threshold: 50,
    });
  });

  it('counts by itself when no iteration number is given, per phase, with the default limit', () => {
    const state = newIterationState();
    for (let i = 0; i < 10; i++) breaker.check(state, { phase: 'exploring', progress: true });
    expect(breaker.check(state, { phase: 'exploring', progress: true })[0]?.reason).toBe(
      'MAX_ITERATIONS_EXCEEDED',
    );
    expect(breaker.check(state, { phase: 'testing', progress: true })).toEqual([]);
  });

  it('trips on stagnation and resets it on progress', () => {
    const state = newIterationState();
    breaker.check(state, { phase: 'planning', progress: false });
    breaker.check(state, { phase: 'planning', progress: false });
    breaker.check(state, { phase: 'planning', progress: true });
    breaker.check(state, { phase: 'planning', progress: false });
    breaker.check(state, { phase: 'planning', progress: false });
    const verdicts = breaker.check(state, { phase: 'planning', progress: false });
    expect(verdicts[0]).toMatchObject({
      breaker: 'stagnation',
      tripped: true,
      reason: 'STAGNATION_DETECTED',
      current: 3,
    });
  });

  it('ignores checks that do not declare a loop turn', () => {
    const state = newIterationState();
    expect(breaker.check(state, { phase: 'deployment' })).toEqual([]);
    expect(state.phases).toEqual({});
  });
});

describe('TimeBreaker', () => {
  const breaker = new TimeBreaker(() => defaults.time);

  it('warns at 90% of a phase limit and trips at the limit', () => {
    const state = newTimeState(0);
    expect(breaker.check(state, 0, 'testing')).toEqual([]);
    const warn = breaker.check(state, 18 * 60_000, 'testing');
    expect(warn[0]).toMatchObject({ reason: 'PHASE_TIMEOUT_WARNING', warning: true });
    const trip = breaker.check(state, 20 * 60_000, 'testing');
    expect(trip[0]).toMatchObject({
      reason: 'PHASE_TIMEOUT_EXCEEDED',
      tripped: true,
      threshold: 20 * 60_000,
    });
  });

  it('starts each phase clock at its first check and trips the run after two hours', () => {
    const state = newTimeState(0);
    breaker.check(state, 100 * 60_000, 'deployment');
    expect(breaker.check(state, 110 * 60_000, 'deployment').map((v) => v.reason)).toEqual([
      'TOTAL_TIMEOUT_WARNING',
    ]);
    expect(breaker.check(state, 120 * 60_000).map((v) => v.reason)).toEqual([
      'TOTAL_TIMEOUT_EXCEEDED',
    ]);
  });
});

describe('ErrorRateBreaker (seed 000 test plan)', () => {
  const breaker = new ErrorRateBreaker(() => defaults.errorRate);

  it('warns at a 10% error rate', () => {
    const state = newErrorRateState();
    for (let i = 0; i < 90; i++) breaker.record(state, 1_000, true);
    for (let i = 0; i < 10; i++) breaker.record(state, 1_000, false);
    const [v] = breaker.check(state, 2_000);
    expect(v).toMatchObject({ tripped: false, warning: true, reason: 'ERROR_RATE_WARNING' });
    expect(v!.current).toBeCloseTo(0.1);
  });

  it('trips at a 50% error rate', () => {
    const state = newErrorRateState();
    for (let i = 0; i < 50; i++) {
      breaker.record(state, 1_000, true);
      breaker.record(state, 1_000, false);
    }
    expect(breaker.check(state, 2_000)[0]).toMatchObject({
      tripped: true,
      reason: 'ERROR_RATE_CRITICAL',
    });
  });

  it('slides: errors older than the window stop counting', () => {
    const state = newErrorRateState();
    for (let i = 0; i < 10; i++) breaker.record(state, 0, false);
    expect(breaker.check(state, 1)[0]?.tripped).toBe(true);
    for (let i = 0; i < 10; i++) breaker.record(state, 4 * 60_000, true);
    expect(breaker.check(state, 5 * 60_000 + 1)).toEqual([]);
  });

  it('does not judge a rate from too few outcomes', () => {
    const state = newErrorRateState();
    breaker.record(state, 0, false);
    expect(breaker.check(state, 1)).toEqual([]);
  });
});

describe('ActionDeduplicator', () => {
  it('reports duplicates inside the window only', () => {
    const d = new ActionDeduplicator(1_000, 10);
    expect(d.checkAndRecord('vote:1', 0).isDuplicate).toBe(false);
    const again = d.checkAndRecord('vote:1', 500);
    expect(again).toMatchObject({ isDuplicate: true, entry: { count: 2, firstSeenAt: 0 } });
    expect(d.checkAndRecord('vote:1', 1_000).isDuplicate).toBe(false);
  });

  it('evicts the least recently used key beyond its bound', () => {
    const d = new ActionDeduplicator(60_000, 2);
    d.checkAndRecord('a', 0);
    d.checkAndRecord('b', 1);
    d.checkAndRecord('a', 2); // a is now the most recent
    d.checkAndRecord('c', 3);
    expect(d.size).toBe(2);
    expect(d.isDuplicate('a', 4)).toBe(true);
    expect(d.isDuplicate('b', 4)).toBe(false);
  });
});
