import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, TestDaemon } from '../../support/daemon';

/** `gatehouse review` in a real process, typed into line by line as a person would. */
class ReviewSession {
  out = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [CLI, 'review'], { env, stdio: 'pipe' });
    this.child.stdout.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.stderr.on('data', (d: Buffer) => (this.out += d.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', resolve));
  }

  /** Waits until the output has `text` after `from` (an offset), and returns where it ends. */
  async until(text: string, from = 0): Promise<number> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const at = this.out.indexOf(text, from);
      if (at >= 0) return at + text.length;
      if (Date.now() > deadline) throw new Error(`no "${text}" in:\n${this.out}`);
      await new Promise((r) => {
        const timer = setTimeout(r, 200);
        this.child.stdout.once('data', () => {
          clearTimeout(timer);
          r(undefined);
        });
      });
    }
  }

  type(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

describe('gatehouse review (real daemon, real CLI process)', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterAll(async () => {
    await d.stop();
  });

  it('says when the request on screen was decided elsewhere and moves on; offers session and always with the rule first', async () => {
    const agent = await d.agent({ agent: 'reviewed', project: '/work/p' });
    const file = (description: string, command: string) =>
      agent.request({ action: 'run_command', description, command, wait: false });
    const a = await file('push A', 'git push origin a');
    const b = await file('push B', 'git push origin b');
    const c = await file('push C', 'git push origin c');
    const e = await file('push E', 'git push origin e');
    const admin = await d.admin();

    const review = new ReviewSession(d.env);
    let at = await review.until('[1/4] reviewed wants to: push A');
    at = await review.until('[q]uit > ', at);
    expect(review.out).toContain('[a]pprove once  [t]his session  a[l]ways  [d]eny');

    // While A is on screen, another terminal approves it and denies B.
    await admin.call('decide', { requestId: a.requestId, decision: 'approve', via: 'cli' });
    await admin.call('decide', { requestId: b.requestId, decision: 'deny', via: 'cli' });
    review.type('a');
    at = await review.until(
      `${a.requestId} (push A) was approved elsewhere (cli); moving to the next.`,
      at,
    );
    // B, decided before it came up, is skipped with the same news.
    at = await review.until(
      `[2/4] ${b.requestId} (push B) was denied elsewhere (cli); moving to the next.`,
      at,
    );
    at = await review.until('[3/4] reviewed wants to: push C', at);

    // "always" shows the rule it would save, and saves nothing when the person says no.
    review.type('l');
    at = await review.until('always would save the rule: ', at);
    at = await review.until('go ahead? [y/N] > ', at);
    expect(review.out.slice(0, at)).toMatch(/always would save the rule: .*git push origin c/);
    review.type('n');
    at = await review.until('[q]uit > ', at);
    expect((await admin.call('rules.list', {})).rules).toEqual([]);
    review.type('l');
    at = await review.until('go ahead? [y/N] > ', at);
    review.type('y');
    at = await review.until('approved; saved the rule: ', at);

    // "this session" shows what it covers, then approves.
    at = await review.until('[4/4] reviewed wants to: push E', at);
    review.type('t');
    at = await review.until('for this session it would cover: ', at);
    review.type('y');
    await review.until('approved for this session', at);
    await review.until('Decided 2 of 4.');
    expect(await review.end()).toBe(0);

    const get = async (id: string) => (await admin.call('request.get', { requestId: id })).request;
    expect(await get(c.requestId)).toMatchObject({ status: 'approved', scope: 'always' });
    expect(await get(e.requestId)).toMatchObject({ status: 'approved', scope: 'session' });
    const { rules } = await admin.call('rules.list', {});
    expect(rules.map((r) => r.command)).toEqual(['git push origin c']);
    admin.close();
    agent.close();
  });

  it('shows a request that moved up behind the cursor in a next walk, and none twice', async () => {
    const agent = await d.agent({ agent: 'queued', project: '/work/q' });
    const file = (description: string, urgency: 'normal' | 'high') =>
      agent.request({ action: 'deploy', description, urgency, wait: false });
    await file('deploy one', 'normal');
    await file('deploy two', 'normal');
    const review = new ReviewSession(d.env);
    let at = await review.until('queued wants to: deploy one');
    at = await review.until('[q]uit > ', at);
    // A high request ranks above both: behind the cursor once the first is on screen.
    const urgent = await file('deploy urgent', 'high');
    review.type('s');
    at = await review.until('queued wants to: deploy two', at);
    review.type('s');
    at = await review.until('queued wants to: deploy urgent', at);
    review.type('d');
    at = await review.until('reason (optional) > ', at);
    review.type('');
    await review.until('Decided 1 of 3.', at);
    expect(await review.end()).toBe(0);
    expect(review.out.split('wants to: deploy one')).toHaveLength(2);
    const admin = await d.admin();
    expect((await admin.call('request.get', { requestId: urgent.requestId })).request.status).toBe(
      'denied',
    );
    admin.close();
    agent.close();
  });
});
