import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../shared/domain';
import { rankedUrgency, urgencyTimeline } from '../../../shared/queue-order';
import { LONG_WAIT_MS } from '../../../shared/request-picture/inferred-urgency';

const T0 = Date.parse('2026-11-26T10:00:00.000Z');

const base: RequestRecord = {
  requestId: 'r1',
  sessionId: 's1',
  agent: 'ops',
  action: 'shell',
  description: 'd',
  urgency: 'normal',
  status: 'pending',
  tier: 'ask',
  rule: 'default:shell',
  ruleReason: 'asks',
  createdAt: new Date(T0).toISOString(),
};

/**
 * The hub keeps a request's ranked urgency as two values and a time (its store cannot call the
 * inference in a query): at every time, they give what the inference itself gives.
 */
describe('urgencyTimeline', () => {
  const cases: Partial<RequestRecord>[] = [
    {},
    { urgency: 'low' },
    { urgency: 'high' },
    { target: 'production' },
    { risk: 'high' },
    { timeoutAt: new Date(T0 + 3_600_000).toISOString() },
    { timeoutAt: new Date(T0 + 3_600_000).toISOString(), status: 'timed_out' },
    { timeoutAt: new Date(T0 + 3_600_000).toISOString(), urgency: 'low' },
    { action: 'git_push', command: 'git push --force origin main' },
  ];
  const times = [0, 1, LONG_WAIT_MS - 1, LONG_WAIT_MS, LONG_WAIT_MS + 1, 10 * LONG_WAIT_MS];

  it.each(cases.map((c) => [JSON.stringify(c), c] as const))(
    'matches rankedUrgency: %s',
    (_, c) => {
      const r = { ...base, ...c };
      const t = urgencyTimeline(r);
      for (const dt of times) {
        const at = T0 + dt;
        expect(at >= t.laterAt ? t.later : t.filed, `at +${dt} ms`).toBe(rankedUrgency(r, at));
      }
    },
  );

  it('a blocked agent becomes high after the long wait', () => {
    const t = urgencyTimeline({ ...base, timeoutAt: new Date(T0 + 3_600_000).toISOString() });
    expect(t).toEqual({ filed: 'normal', later: 'high', laterAt: T0 + LONG_WAIT_MS });
  });
});
