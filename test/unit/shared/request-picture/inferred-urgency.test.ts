import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../../shared/domain';
import { inferUrgency, LONG_WAIT_MS } from '../../../../shared/request-picture/inferred-urgency';

const NOW = Date.parse('2026-03-02T10:00:00Z');
const base: Parameters<typeof inferUrgency>[0] = {
  urgency: 'normal',
  action: 'run_command',
  status: 'pending',
  createdAt: new Date(NOW - 1000).toISOString(),
};
const infer = (r: Partial<RequestRecord>) => inferUrgency({ ...base, ...r }, NOW);

describe('inferred urgency', () => {
  it('raises a request with no urgency of its own, with each reason', () => {
    expect(infer({ risk: 'critical' })).toEqual({ urgency: 'high', reasons: ['critical risk'] });
    expect(infer({ command: 'kubectl apply -f k8s/prod.yaml' })?.reasons).toEqual([
      'it targets production',
    ]);
    expect(infer({ target: 'production' })?.reasons).toEqual(['it targets production']);
    expect(infer({ action: 'git_push', command: 'git push --force origin main' })?.reasons).toEqual(
      ['a force push', 'a push to the main branch'],
    );
    expect(infer({ action: 'git_push', command: 'git push origin +feature' })?.reasons).toEqual([
      'a force push',
    ]);
    expect(
      infer({
        action: 'git_push',
        picture: {
          push: { remote: 'o', branch: 'master', force: false, commits: [], commitCount: 1 },
        },
      })?.reasons,
    ).toEqual(['a push to the main branch']);
    const blocked = infer({
      timeoutAt: new Date(NOW + 1000).toISOString(),
      createdAt: new Date(NOW - LONG_WAIT_MS - 120_000).toISOString(),
    });
    expect(blocked?.reasons).toEqual(['an agent has been blocked on it for 7 min']);
  });

  it('leaves alone what needs nothing more, and an urgency the agent chose', () => {
    for (const r of [
      {},
      { command: 'npm run reproduce' },
      { action: 'git_push', command: 'git push origin maintenance' },
      { timeoutAt: new Date(NOW + 1000).toISOString() },
      { createdAt: new Date(NOW - LONG_WAIT_MS * 2).toISOString() },
      { urgency: 'low' as const, risk: 'critical' as const },
      { urgency: 'high' as const, risk: 'critical' as const },
    ])
      expect(infer(r), JSON.stringify(r)).toBeUndefined();
  });
});
