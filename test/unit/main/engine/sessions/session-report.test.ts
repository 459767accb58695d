import { describe, expect, it } from 'vitest';
import type { AuditEvent, RequestRecord, SessionRecord } from '../../../../../shared/domain';
import { buildSessionReport } from '../../../../../main/engine/sessions/session-report';

const session: SessionRecord = {
  sessionId: 'ses-1',
  agent: 'release-bot',
  project: '/work/app',
  labels: { goal: 'Ship v1.2' },
  status: 'completed',
  startedAt: '2026-11-23T10:00:00.000Z',
  endedAt: '2026-11-23T10:30:00.000Z',
  costUsd: 0.5,
  connections: 0,
};

const request = (over: Partial<RequestRecord>): RequestRecord => ({
  requestId: 'req-1',
  sessionId: 'ses-1',
  agent: 'release-bot',
  action: 'git_push',
  description: 'Push v1.2',
  urgency: 'normal',
  status: 'approved',
  tier: 'ask',
  rule: 'default:git_push',
  ruleReason: 'pushing publishes code',
  createdAt: '2026-11-23T10:05:00.000Z',
  ...over,
});

const trip: AuditEvent = {
  seq: 7,
  at: '2026-11-23T10:20:00.000Z',
  type: 'guard.tripped',
  sessionId: 'ses-1',
  data: {
    breaker: 'stagnation',
    reason: 'STAGNATION_DETECTED',
    current: 5,
    threshold: 5,
    suggestion: 'Change approach',
    evidence: { phase: 'fix' },
  },
};

describe('the Markdown session report', () => {
  const md = buildSessionReport({
    session,
    transcript: [
      { at: '2026-11-23T10:01:00.000Z', kind: 'log', text: 'Ran the tests' },
      {
        at: '2026-11-23T10:02:00.000Z',
        kind: 'usage',
        text: 'claude-sonnet-4-5: 1000 in, 200 out, $0.3000',
        data: { model: 'claude-sonnet-4-5', costUsd: 0.3 },
      },
      {
        at: '2026-11-23T10:03:00.000Z',
        kind: 'usage',
        text: 'claude-sonnet-4-5: 500 in, 100 out, $0.1500',
        data: { model: 'claude-sonnet-4-5', costUsd: 0.15 },
      },
      {
        at: '2026-11-23T10:04:00.000Z',
        kind: 'usage',
        text: 'gpt-4o-mini: 10 in, 5 out, $0.0500',
        data: { model: 'gpt-4o-mini', costUsd: 0.05 },
      },
    ],
    requests: [
      request({
        decidedBy: 'human',
        scope: 'once',
        message: 'ok, ship it',
        command: 'git push origin main',
      }),
      request({
        requestId: 'req-2',
        action: 'send_email',
        description: 'Mail the | release notes',
        status: 'denied',
        decidedBy: 'human',
        reason: 'not before Monday',
      }),
      request({ requestId: 'req-3', action: 'deploy', description: 'Deploy', status: 'timed_out' }),
    ],
    audit: [trip],
    now: '2026-11-23T11:00:00.000Z',
  });

  it('has every section a handoff needs, in order', () => {
    const headings = md.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).toEqual([
      '# Session report: release-bot (ses-1)',
      '## Timeline',
      '## Requests',
      '## Breaker trips',
      '## Spend by model',
      '## Still waiting',
      '## Next steps',
    ]);
    expect(md).toContain('- **Goal:** Ship v1.2');
    expect(md).toContain('- **Requests:** 3 (1 approved, 1 denied, 1 waiting)');
  });

  it('says who decided each request and why, without breaking the table', () => {
    expect(md).toContain(
      '| git_push | `git push origin main` | ask (default:git_push) | approved | human (once) | ok, ship it |',
    );
    expect(md).toContain('Mail the \\| release notes');
    expect(md).toContain('| denied | human | not before Monday |');
  });

  it('lists trips with their evidence and adds up spend by model', () => {
    expect(md).toContain(
      '**stagnation** tripped: STAGNATION_DETECTED (5 of 5) — Change approach · evidence `{"phase":"fix"}`',
    );
    expect(md).toContain('| claude-sonnet-4-5 | 2 | 1500 | 300 | $0.4500 |');
    expect(md.indexOf('claude-sonnet-4-5 | 2')).toBeLessThan(md.indexOf('gpt-4o-mini | 1'));
  });

  it('names what is waiting and what to do next', () => {
    expect(md).toContain('`req-3` Deploy (deploy, timed out, still in the queue');
    expect(md).toContain('Decide the 1 waiting request');
    expect(md).toContain(
      'Work around what was denied: Mail the \\| release notes (not before Monday)',
    );
    expect(md).toContain('Find out why stagnation tripped');
  });

  it('says so when there is nothing to report', () => {
    const empty = buildSessionReport({
      session: { ...session, labels: {}, status: 'active', endedAt: undefined },
      transcript: [],
      requests: [],
      audit: [],
      now: '2026-11-23T11:00:00.000Z',
    });
    expect(empty).toContain('Nothing was recorded.');
    expect(empty).toContain('No breaker tripped.');
    expect(empty).toContain('The session is still running: this report is a snapshot.');
    expect(empty).toContain('**Goal:** not stated');
  });
});
