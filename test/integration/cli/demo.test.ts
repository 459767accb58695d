import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, TestDaemon } from '../../support/daemon';

describe('gatehouse demo (real daemon, real process)', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterAll(async () => {
    await d?.stop();
  });

  it('runs several simulated agents to completion and leaves their requests for a human', async () => {
    const started = Date.now();
    const r = await d.cli(['demo', '--agents', '2', '--wait-ms', '300']);
    const elapsed = Date.now() - started;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(elapsed).toBeLessThan(30_000);
    for (const agent of ['demo-agent-1', 'demo-agent-2']) {
      expect(r.stdout).toContain(`[${agent}] read README.md: auto (default:read_file)`);
      expect(r.stdout).toMatch(new RegExp(`\\[${agent}\\] asked to git_push: queued as \\S+`));
      expect(r.stdout).toMatch(new RegExp(`\\[${agent}\\] send_email: timed_out`));
      expect(r.stdout).toMatch(
        new RegExp(
          `\\[${agent}\\] attempt \\d+: STOP — stagnation breaker tripped \\(STAGNATION_DETECTED`,
        ),
      );
      expect(r.stdout).toContain(`[${agent}] session ended. Summary:`);
    }
    expect(r.stdout).toMatch(
      /Demo finished: 2 sessions ended, 2 stopped by a breaker, 4 requests waiting for you\./,
    );

    // What the demo printed is what Gatehouse holds.
    const list = JSON.parse((await d.cli(['list', '--json'])).stdout) as {
      requestId: string;
      action: string;
      status: string;
      agent: string;
    }[];
    expect(list.map((q) => `${q.agent}:${q.action}:${q.status}`).sort()).toEqual([
      'demo-agent-1:git_push:pending',
      'demo-agent-1:send_email:timed_out',
      'demo-agent-2:git_push:pending',
      'demo-agent-2:send_email:timed_out',
    ]);
    for (const q of list) expect(r.stdout).toContain(`gatehouse approve ${q.requestId}`);
    const admin = await d.admin();
    try {
      const { sessions } = await admin.call('sessions.list', {});
      // Stopped by a breaker is not "completed": the sessions end as aborted, saying why.
      expect(sessions.map((s) => `${s.agent}:${s.status}`).sort()).toEqual([
        'demo-agent-1:aborted',
        'demo-agent-2:aborted',
      ]);
      for (const s of sessions) {
        expect(s.costUsd).toBeCloseTo(0.063, 6);
        const got = await admin.call('session.get', { sessionId: s.sessionId });
        expect(got.summary?.needsReview).toHaveLength(3);
        expect(got.summary?.needsReview[0]).toMatch(
          /^Stopped by Gatehouse: the stagnation breaker tripped \(STAGNATION_DETECTED, \d+ of \d+\)/,
        );
        expect(got.summary?.done.join('\n')).not.toContain('Stopped by Gatehouse');
        expect(got.transcript.some((t) => t.text.includes('Ran the unit tests'))).toBe(true);
      }
    } finally {
      admin.close();
    }

    // One definition of "waiting for you": status counts what list lists, timed out included.
    const status = JSON.parse((await d.cli(['status', '--json'])).stdout) as {
      pending: number;
      timedOut: number;
    };
    expect(status).toMatchObject({ pending: list.length, timedOut: 2 });
    expect((await d.cli(['status'])).stdout).toContain('4 waiting for you (2 timed out)');

    // The stagnation trips show after the breaker closed again, with their reason.
    const breakers = await d.cli(['breakers']);
    expect(breakers.stdout).toContain('Breakers now (open first):\n  none open or half-open');
    expect(breakers.stdout).toMatch(/Recent trips \(last 24 hours, newest first\)/);
    expect(breakers.stdout.match(/stagnation +STAGNATION_DETECTED +demo-agent-\d/g)).toHaveLength(
      2,
    );

    // The approval the demo suggests works.
    const push = list.find((q) => q.action === 'git_push')!;
    expect((await d.cli(['approve', push.requestId])).code).toBe(0);
  });

  it('says how to start Gatehouse when it is not running', async () => {
    const r = await runCli(
      {
        ...process.env,
        GATEHOUSE_SOCKET: '/nonexistent/gatehouse/agent.sock',
        GATEHOUSE_HOME: '/nonexistent/gatehouse',
      },
      ['demo'],
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not running.*gatehouse daemon/);
  });

  it('rejects a bad --agents', async () => {
    const r = await d.cli(['demo', '--agents', '0']);
    expect(r.code).toBe(4);
  });
});
