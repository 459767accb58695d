import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  ControlNotification,
  DecisionNotification,
} from '../../../shared/protocol/agent-methods';
import { GatehouseClient } from '../../../clients/sdk/client';
import { runCli, TestDaemon } from '../../support/daemon';
import { waitForPending as pendingRequest } from '../../support/events';

/** The id of the pending request with this description, as the daemon announces it. */
async function waitForPending(d: TestDaemon, description: string): Promise<string> {
  const admin = await d.admin();
  try {
    return (await pendingRequest(admin, (r) => r.description === description)).requestId;
  } finally {
    admin.close();
  }
}

describe('the review queue through the CLI (real daemon)', () => {
  let d: TestDaemon;
  beforeEach(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterEach(async () => {
    await d.stop();
  });

  it('approves a waiting request from the CLI, and lists requests as JSON', async () => {
    const agent = await d.agent({ agent: 'builder', project: '/work/p' });
    const answer = agent.request({
      action: 'git_push',
      description: 'push main to origin',
      urgency: 'high',
      rationale: 'tests pass',
    });
    const id = await waitForPending(d, 'push main to origin');
    const listed = JSON.parse((await d.cli(['list', '--json'])).stdout)[0];
    expect(listed).toMatchObject({
      requestId: id,
      action: 'git_push',
      status: 'pending',
      urgency: 'high',
      agent: 'builder',
    });
    expect(typeof listed.createdAt).toBe('string');
    const approve = await d.cli(['approve', id, '--message', 'go ahead']);
    expect(approve.code).toBe(0);
    expect(await answer).toMatchObject({
      requestId: id,
      status: 'approved',
      decidedBy: 'human',
      message: 'go ahead',
    });
    agent.close();
  });

  it('denies with a reason the agent sees', async () => {
    const agent = await d.agent({ agent: 'mailer' });
    const answer = agent.request({ action: 'send_email', description: 'email the customer' });
    const id = await waitForPending(d, 'email the customer');
    expect((await d.cli(['deny', id, '--reason', 'not on a Sunday'])).code).toBe(0);
    expect(await answer).toMatchObject({
      status: 'denied',
      decidedBy: 'human',
      reason: 'not on a Sunday',
    });
    agent.close();
  });

  it('times out, keeps the request queued, and turns a late approval into a one-time grant', async () => {
    const agent = await d.agent({ agent: 'deployer' });
    const decisions: DecisionNotification[] = [];
    agent.on('decision', (n) => decisions.push(n));
    const action = { action: 'deploy', target: 'staging', description: 'deploy to staging' };
    const first = await agent.request({ ...action, timeoutMs: 200 });
    expect(first.status).toBe('timed_out');
    const listed = JSON.parse((await d.cli(['list', '--json'])).stdout);
    expect(
      listed.map((r: { requestId: string; status: string }) => [r.requestId, r.status]),
    ).toEqual([[first.requestId, 'timed_out']]);
    expect((await d.cli(['approve', first.requestId])).code).toBe(0);
    await expect.poll(() => decisions.length).toBe(1);
    expect(decisions[0]).toMatchObject({
      requestId: first.requestId,
      status: 'approved',
      decidedBy: 'human',
    });
    // The next identical request consumes the grant; a different target does not.
    // classify reports the grant (ask: only a request uses it) and leaves it unused.
    expect(await agent.classify({ action: 'deploy', target: 'staging' })).toMatchObject({
      tier: 'ask',
      rule: expect.stringMatching(/^grant:/),
    });
    const second = await agent.request({ ...action, timeoutMs: 200 });
    expect(second).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    const third = await agent.request({ ...action, timeoutMs: 100 });
    expect(third.status).toBe('timed_out');
    const other = await agent.request({ ...action, target: 'production', timeoutMs: 100 });
    expect(other.status).toBe('timed_out');
    agent.close();
  });

  it('keeps pending requests and decisions across kill -9 and a restart', async () => {
    const agent = await d.agent({ agent: 'survivor', sessionKey: 'abc' });
    const queued = await agent.request({
      action: 'purchase',
      description: 'buy a domain',
      wait: false,
    });
    const decided = await agent.request({
      action: 'create_issue',
      description: 'file a bug',
      wait: false,
    });
    expect((await d.cli(['deny', decided.requestId, '--reason', 'duplicate'])).code).toBe(0);
    agent.close();
    await d.kill9();
    await d.launch(['--no-dashboard']);
    const list = JSON.parse((await d.cli(['list', '--json'])).stdout);
    expect(list.map((r: { requestId: string }) => r.requestId)).toEqual([queued.requestId]);
    const again = await d.agent({ agent: 'survivor', sessionKey: 'abc' });
    expect(again.sessionId).toBe(agent.sessionId);
    expect(await again.await({ requestId: decided.requestId })).toMatchObject({
      status: 'denied',
      reason: 'duplicate',
    });
    expect(await again.await({ requestId: queued.requestId, timeoutMs: 50 })).toMatchObject({
      status: 'pending',
    });
    again.close();
  });

  it('returns the same request for the same dedupeKey while it is pending', async () => {
    const agent = await d.agent({ agent: 'deduper' });
    const a = await agent.request({
      action: 'post_message',
      description: 'post the report',
      wait: false,
      dedupeKey: 'report-1',
    });
    const b = await agent.request({
      action: 'post_message',
      description: 'post the report',
      wait: false,
      dedupeKey: 'report-1',
    });
    expect(b.requestId).toBe(a.requestId);
    expect(JSON.parse((await d.cli(['list', '--json'])).stdout)).toHaveLength(1);
    agent.close();
  });

  it('turns an "always" approval into a rule the CLI lists and removes', async () => {
    const agent = await d.agent({ agent: 'pr-bot' });
    const answer = agent.request({ action: 'create_pull_request', description: 'open PR #1' });
    const id = await waitForPending(d, 'open PR #1');
    expect((await d.cli(['approve', id, '--scope', 'always'])).code).toBe(0);
    await answer;
    const rules = JSON.parse((await d.cli(['rules', 'list', '--json'])).stdout);
    expect(rules).toMatchObject([
      { action: 'create_pull_request', tier: 'auto', source: 'decision' },
    ]);
    expect(
      await agent.request({ action: 'create_pull_request', description: 'open PR #2' }),
    ).toMatchObject({ status: 'approved', decidedBy: 'rule' });
    expect((await d.cli(['rules', 'remove', rules[0].ruleId])).code).toBe(0);
    expect((await agent.classify({ action: 'create_pull_request' })).tier).toBe('ask');
    agent.close();
  });

  it('approves for the session only', async () => {
    const agent = await d.agent({ agent: 'sess' });
    const answer = agent.request({ action: 'install_package', description: 'install left-pad' });
    const id = await waitForPending(d, 'install left-pad');
    await d.cli(['approve', id, '--scope', 'session']);
    await answer;
    expect(
      await agent.request({ action: 'install_package', description: 'install right-pad' }),
    ).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    const other = await d.agent({ agent: 'sess' });
    expect(
      (await other.request({ action: 'install_package', description: 'x', wait: false })).status,
    ).toBe('queued');
    agent.close();
    other.close();
  });

  it('pauses and resumes agents with control notifications', async () => {
    const agent = await d.agent({ agent: 'worker' });
    const controls: ControlNotification[] = [];
    agent.on('control', (c) => controls.push(c));
    expect((await d.cli(['pause', 'worker', '--reason', 'lunch'])).code).toBe(0);
    await expect.poll(() => controls.length).toBe(1);
    expect(controls[0]).toEqual({ state: 'paused', reason: 'lunch' });
    expect(await agent.check()).toMatchObject({ allowed: false, mode: 'paused' });
    expect(await agent.request({ action: 'deploy', description: 'x' })).toMatchObject({
      status: 'denied',
      decidedBy: 'system',
    });
    expect((await d.cli(['resume'])).code).toBe(0);
    await expect.poll(() => controls.length).toBe(2);
    expect((await agent.check()).allowed).toBe(true);
    agent.close();
  });

  it('ends a session with a summary and writes its transcript file', async () => {
    const agent = await d.agent({ agent: 'summarist', project: '/tmp/proj' });
    await agent.log({ type: 'edit', description: 'Refactored the parser' });
    await agent.request({ action: 'read_file', description: 'read README', paths: ['README.md'] });
    const open = await agent.request({
      action: 'send_email',
      description: 'send release notes',
      wait: false,
    });
    const { summary } = await agent.end('completed');
    expect(summary.done).toContain('Refactored the parser');
    expect(summary.needsReview.join('\n')).toContain(open.requestId);
    expect(summary.text).toContain('Needs review (1)');
    const file = join(d.home, 'transcripts', `${agent.sessionId}.json`);
    // Written in the background once the end is committed, a page per turn.
    await expect.poll(() => existsSync(file), { timeout: 10_000 }).toBe(true);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.session).toMatchObject({ sessionId: agent.sessionId, status: 'completed' });
    expect(doc.transcript.map((e: { kind: string }) => e.kind)).toContain('log');
    const printed = await d.cli(['summary', agent.sessionId!]);
    expect(printed.stdout).toContain('Refactored the parser');
    agent.close();
  });

  it('closes a session whose last connection dropped after the grace period', async () => {
    await d.cli(['config', 'set', 'sessions.graceMs', '100']);
    const agent = await d.agent({ agent: 'vanisher' });
    agent.close();
    const admin = await d.admin();
    await expect
      .poll(
        async () =>
          (await admin.call('session.get', { sessionId: agent.sessionId! })).session.status,
        {
          timeout: 15_000,
        },
      )
      .toBe('abandoned');
    admin.close();
    await expect
      .poll(() => existsSync(join(d.home, 'transcripts', `${agent.sessionId}.json`)), {
        timeout: 10_000,
      })
      .toBe(true);
  });

  it('reviews interactively: view details, approve one, deny one with a reason, skip one', async () => {
    const agent = await d.agent({ agent: 'reviewed' });
    const a = await agent.request({
      action: 'git_push',
      description: 'push A',
      rationale: 'ready',
      wait: false,
    });
    const b = await agent.request({ action: 'send_email', description: 'mail B', wait: false });
    const c = await agent.request({ action: 'deploy', description: 'deploy C', wait: false });
    const r = await d.cli(['review'], 'v\na\nd\nwrong audience\ns\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[1/3] reviewed wants to: push A');
    expect(r.stdout).toContain('Asked by:    default:git_push');
    expect(r.stdout).toContain('Decided 2 of 3.');
    const admin = await d.admin();
    const status = async (id: string) =>
      (await admin.call('request.get', { requestId: id })).request;
    expect((await status(a.requestId)).status).toBe('approved');
    expect(await status(b.requestId)).toMatchObject({ status: 'denied', reason: 'wrong audience' });
    expect((await status(c.requestId)).status).toBe('pending');
    admin.close();
    agent.close();
  });

  it('reviews a queue longer than a page, reading it a page at a time', async () => {
    const admin = await d.admin();
    const before = (await admin.call('pending.list', { limit: 1 })).total ?? 0;
    const agent = await d.agent({ agent: 'bulk' });
    const filed: string[] = [];
    for (let i = 0; i < 230; i++)
      filed.push(
        (await agent.request({ action: 'deploy', description: `bulk ${i}`, wait: false }))
          .requestId,
      );
    // Skip what waited before and the first 150 of ours (past the first page of 100), approve
    // the 151st, then quit.
    const r = await d.cli(['review'], `${'s\n'.repeat(before + 150)}a\nq\n`);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`[${before + 151}/${before + 230}] bulk wants to: bulk 150`);
    expect(r.stdout).toContain('Decided 1.');
    const status = async (id: string) =>
      (await admin.call('request.get', { requestId: id })).request.status;
    expect(await status(filed[150]!)).toBe('approved');
    expect(await status(filed[149]!)).toBe('pending');
    await admin.call('decideMany', {
      requestIds: filed.filter((_, i) => i !== 150),
      decision: 'deny',
      reason: 'test cleanup',
    });
    admin.close();
    agent.close();
  });

  it('shows the decision history and suggests a rule for an action always approved', async () => {
    const agent = await d.agent({ agent: 'historian' });
    for (let i = 0; i < 5; i++) {
      const q = await agent.request({
        action: 'create_issue',
        description: `issue ${i}`,
        target: 'github.com/acme/shop',
        wait: false,
      });
      await d.cli(['approve', q.requestId]);
    }
    const denied = await agent.request({ action: 'send_email', description: 'spam', wait: false });
    await d.cli(['deny', denied.requestId, '--reason', 'no spam']);
    const log = await d.cli(['log']);
    expect(log.stdout).toContain('no spam');
    // The engine's suggestion: the narrowest rule of the five approvals, never the denied one.
    expect(log.stdout).toContain(
      'You approved 5 times and never denied: create_issue with target github.com/acme/shop in any project',
    );
    expect(log.stdout).toMatch(/gatehouse suggestions accept [0-9a-f]{16}/);
    expect(log.stdout).not.toContain('send_email with');
    const audit = JSON.parse(
      (await d.cli(['log', '--audit', '--type', 'request.denied', '--json'])).stdout,
    );
    expect(audit).toMatchObject([{ type: 'request.denied', requestId: denied.requestId }]);
    agent.close();
  });

  it('says clearly when an id is unknown or a setting is bad', async () => {
    const unknown = await d.cli(['approve', 'req-nope']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('request req-nope not found');
    const badKey = await d.cli(['config', 'set', 'budgets.perDay', '5']);
    expect(badKey.code).toBe(4);
    expect(badKey.stderr).toContain('unknown setting');
    const badValue = await d.cli(['config', 'set', 'requests.defaultTimeoutMs', '"soon"']);
    expect(badValue.code).toBe(4);
    const good = await d.cli(['config', 'set', 'requests.defaultTimeoutMs', '60000']);
    expect(good.stdout).toContain('60000');
    expect(JSON.parse((await d.cli(['config', 'get', 'requests.defaultTimeoutMs'])).stdout)).toBe(
      60000,
    );
  });
});

describe('without a daemon', () => {
  it('the CLI says Gatehouse is not running and exits 2; the SDK fails closed', async () => {
    const env = {
      ...process.env,
      GATEHOUSE_HOME: '/nonexistent/gh',
      GATEHOUSE_SOCKET: '/nonexistent/gh/agent.sock',
    };
    const r = await runCli(env, ['list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Gatehouse is not running');
    const { requestPermission } = await import('../../../clients/sdk/client');
    const answer = await requestPermission(
      { agent: 'x', socketPath: '/nonexistent/gh/agent.sock' },
      { action: 'deploy', description: 'd' },
    );
    expect(answer).toMatchObject({ status: 'denied', decidedBy: 'system' });
    expect(answer.reason).toContain('GATEHOUSE_UNREACHABLE');
    await expect(
      GatehouseClient.connect({
        agent: 'x',
        socketPath: '/nonexistent/gh/agent.sock',
        reconnect: false,
      }),
    ).rejects.toThrow(/not running/);
  });
});
