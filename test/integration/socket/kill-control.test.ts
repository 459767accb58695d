/**
 * Control must hold: after `gatehouse kill` the agent's waiting requests are
 * cancelled with the reason `agent killed`, so no approval can release them; while an agent
 * is paused its requests are held (approve refuses, deny works); `list` and `show` say so;
 * a killed agent's SDK gets clean answers (never an unhandled -32003), also after it
 * reconnects. Real daemon, real CLI, real SDK.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { GatehouseClient } from '../../../clients/sdk/client';
import { TestDaemon } from '../../support/daemon';

let d: TestDaemon;
let admin: AdminClient;

beforeAll(async () => {
  d = await TestDaemon.start({}, []);
  admin = await d.admin();
});
afterAll(async () => {
  admin.close();
  await d.stop();
});

/** Until the review queue holds `n` requests. */
const waitForPending = (a: AdminClient, n: number) =>
  expect.poll(async () => (await a.call('pending.list', {})).requests.length).toBe(n);

const sdkAgent = (agent: string) =>
  GatehouseClient.connect({ agent, socketPath: d.socketPath, reconnectWaitMs: 1000 });

describe('gatehouse kill', () => {
  it("cancels the agent's waiting request; approve refuses with the reason; the SDK answers cleanly", async () => {
    const gh = await sdkAgent('deployer');
    const asked = gh.request({ action: 'deploy', description: 'Deploy v2 to production' });
    const filed = await gh.request({
      action: 'git_push',
      description: 'Push release branch',
      wait: false,
    });
    expect(filed.status).toBe('queued');
    await waitForPending(admin, 2);
    const listed = await d.cli(['list']);
    expect(listed.stdout).toMatch(/deployer\s+deploy/);

    const kill = await d.cli(['kill', 'deployer', '--reason', 'runaway']);
    expect(kill.code).toBe(0);
    // The waiting call is answered at once: cancelled, by the system, with the reason.
    const answer = await asked;
    expect(answer).toMatchObject({
      status: 'cancelled',
      decidedBy: 'system',
      reason: 'agent killed: runaway',
    });
    // Nothing of the agent is left in the queue, and approve says why.
    expect((await admin.call('pending.list', {})).requests).toEqual([]);
    const approve = await d.cli(['approve', filed.requestId]);
    expect(approve.code).not.toBe(0);
    expect(approve.stderr).toMatch(/already cancelled: agent killed: runaway/);
    const shown = await d.cli(['show', filed.requestId]);
    expect(shown.stdout).toMatch(/cancelled/);
    expect(shown.stdout).toMatch(/killed by a human/);
    expect(shown.stdout).toMatch(/Decided by:\s+system: agent killed: runaway/);

    // check, request and classify answer cleanly; nothing throws -32003 at the agent.
    const check = await gh.check();
    expect(check.allowed).toBe(false);
    expect(check.verdicts[0]).toMatchObject({ breaker: 'kill_switch', reason: 'AGENT_KILLED' });
    expect(check.verdicts[0]!.suggestion).toMatch(/killed this agent \(runaway\)/);
    const again = await gh.request({ action: 'deploy', description: 'Deploy once more' });
    expect(again.status).toBe('denied');
    expect(again.reason).toMatch(/^AGENT_KILLED: agent deployer is killed by a human: runaway/);
    expect((await gh.classify({ action: 'deploy' })).tier).toBe('ask');
    expect((await admin.call('pending.list', {})).requests).toEqual([]);
    await gh.end('aborted');
  });

  it('a killed agent that reconnects is told it was killed, not to start Gatehouse', async () => {
    const gh = await sdkAgent('deployer');
    expect(gh.connected).toBe(true);
    expect(gh.hello?.mode).toBe('paused');
    // Told at once, with the reason, by a control notification right after its hello.
    await expect.poll(() => gh.control).toEqual({ state: 'killed', reason: 'runaway' });
    const check = await gh.check();
    expect(check.verdicts[0]!.reason).toBe('AGENT_KILLED');
    expect(JSON.stringify(check)).not.toMatch(/start Gatehouse/);
    const r = await gh.request({ action: 'deploy', description: 'Deploy after reconnect' });
    expect(r.reason).toMatch(/^AGENT_KILLED/);
    expect(r.reason).not.toMatch(/UNREACHABLE|start Gatehouse/);
    gh.close();
    await d.cli(['resume', 'deployer']);
  });

  it('kill without an agent cancels every agent’s waiting requests', async () => {
    const a = await sdkAgent('one');
    const b = await sdkAgent('two');
    await a.request({ action: 'deploy', description: 'one deploys', wait: false });
    await b.request({ action: 'deploy', description: 'two deploys', wait: false });
    await waitForPending(admin, 2);
    expect((await d.cli(['kill'])).code).toBe(0);
    expect((await admin.call('pending.list', {})).requests).toEqual([]);
    await d.cli(['resume']);
    a.close();
    b.close();
  });
});

describe('gatehouse pause', () => {
  it('holds the agent’s requests: list and show say paused, approve refuses, deny works', async () => {
    const gh = await sdkAgent('pausable');
    const first = await gh.request({ action: 'deploy', description: 'first', wait: false });
    const second = await gh.request({ action: 'deploy', description: 'second', wait: false });
    await waitForPending(admin, 2);
    expect((await d.cli(['pause', 'pausable', '--reason', 'lunch'])).code).toBe(0);

    const listed = await d.cli(['list']);
    expect(listed.stdout).toMatch(/pausable \(paused\)/);
    expect((await d.cli(['show', first.requestId])).stdout).toMatch(/paused by a human/);
    const json = JSON.parse((await d.cli(['show', first.requestId, '--json'])).stdout) as {
      agentState: string;
      agentConnected: boolean;
    };
    expect(json).toMatchObject({ agentState: 'paused', agentConnected: true });

    // The phone page of the request's decision link says so too.
    const link = await d.cli(['link', first.requestId]);
    expect(link.code).toBe(0);
    const page = await (await fetch(link.stdout.trim())).text();
    // The agent's name is isolated from the page's direction (a <bdi>): read the text.
    const agentRow = /data-testid="phone-agent"[^>]*>([\s\S]*?)<\/dd>/.exec(page)?.[1] ?? '';
    expect(agentRow.replace(/<[^>]+>/g, '')).toBe('pausable (paused)');

    const approve = await d.cli(['approve', first.requestId]);
    expect(approve.code).not.toBe(0);
    expect(approve.stderr).toMatch(/agent pausable is paused \(lunch\): its requests are held/);
    expect((await admin.call('request.get', { requestId: first.requestId })).request.status).toBe(
      'pending',
    );
    expect((await d.cli(['deny', second.requestId, '--reason', 'no'])).code).toBe(0);

    // Resumed: the held request can be approved, and the agent hears of it.
    expect((await d.cli(['resume', 'pausable'])).code).toBe(0);
    const decided = new Promise((resolve) => gh.once('decision', resolve));
    expect((await d.cli(['approve', first.requestId])).code).toBe(0);
    expect(await decided).toMatchObject({ requestId: first.requestId, status: 'approved' });
    gh.close();
  });

  it('a request whose agent has gone shows as gone', async () => {
    const gh = await sdkAgent('leaver');
    const r = await gh.request({ action: 'deploy', description: 'left behind', wait: false });
    gh.close();
    await expect
      .poll(async () => (await admin.call('request.get', { requestId: r.requestId })).request)
      .toMatchObject({ agentConnected: false, agentState: 'running' });
    expect((await d.cli(['list'])).stdout).toMatch(/leaver \(gone\)/);
    await admin.call('decide', { requestId: r.requestId, decision: 'deny' });
  });
});
