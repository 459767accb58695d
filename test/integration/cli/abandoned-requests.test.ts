/**
 * Requests of agents that are gone: every view says whether the asking agent is
 * still connected, `gatehouse list --gone` / `--connected` filter by it, and retention closes
 * the requests of a session that ended and never came back as `abandoned` after
 * `retention.abandonAfterMs`, so that nobody decides them in vain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { TestDaemon } from '../../support/daemon';

let d: TestDaemon;
let admin: AdminClient;

beforeAll(async () => {
  d = await TestDaemon.start({}, ['--no-dashboard']);
  admin = await d.admin();
  expect((await d.cli(['config', 'set', 'sessions.graceMs', '100'])).code).toBe(0);
  expect((await d.cli(['config', 'set', 'retention.abandonAfterMs', '300'])).code).toBe(0);
});
afterAll(async () => {
  admin.close();
  await d.stop();
});

describe('requests of agents that are gone', () => {
  it('are shown and filtered as gone, then closed as abandoned by retention', async () => {
    const leaver = await d.agent({ agent: 'leaver' });
    const left = await leaver.request({
      action: 'deploy',
      description: 'deploy then vanish',
      wait: false,
    });
    const stayer = await d.agent({ agent: 'stayer' });
    const kept = await stayer.request({
      action: 'deploy',
      description: 'deploy and wait',
      wait: false,
    });
    leaver.close();
    const sessionOf = async (id: string) =>
      (await admin.call('request.get', { requestId: id })).request.sessionId;
    const leaverSession = await sessionOf(left.requestId);
    await expect
      .poll(async () => (await admin.call('request.get', { requestId: left.requestId })).request)
      .toMatchObject({ agentConnected: false });

    const gone = await d.cli(['list', '--gone']);
    expect(gone.stdout).toContain(left.requestId);
    expect(gone.stdout).not.toContain(kept.requestId);
    expect(gone.stdout).toMatch(/leaver \(gone\)/);
    const connected = await d.cli(['list', '--connected']);
    expect(connected.stdout).toContain(kept.requestId);
    expect(connected.stdout).not.toContain(left.requestId);
    expect((await d.cli(['show', left.requestId])).stdout).toMatch(/not connected/);

    // The session is closed as abandoned after its grace period; the request waits until
    // retention runs after abandonAfterMs.
    await expect
      .poll(
        async () => (await admin.call('session.get', { sessionId: leaverSession })).session.status,
        {
          timeout: 5000,
        },
      )
      .toBe('abandoned');
    expect((await admin.call('request.get', { requestId: left.requestId })).request.status).toBe(
      'pending',
    );
    await new Promise((r) => setTimeout(r, 400));
    expect((await d.cli(['prune'])).code).toBe(0);

    const closed = (await admin.call('request.get', { requestId: left.requestId })).request;
    expect(closed).toMatchObject({ status: 'abandoned', decidedBy: 'system' });
    expect(closed.reason).toMatch(/^agent gone: its session was abandoned/);
    // The connected agent's request still waits; the queue holds only it.
    const { requests } = await admin.call('pending.list', {});
    expect(requests.map((r) => r.requestId)).toEqual([kept.requestId]);
    const approve = await d.cli(['approve', left.requestId]);
    expect(approve.code).not.toBe(0);
    expect(approve.stderr).toMatch(/already abandoned: agent gone/);
    const history = await d.cli(['list', '--history']);
    expect(history.stdout).toMatch(new RegExp(`${left.requestId}\\s+abandoned`));
    stayer.close();
  });

  it('abandonAfterMs 0 keeps them waiting', async () => {
    expect((await d.cli(['config', 'set', 'retention.abandonAfterMs', '0'])).code).toBe(0);
    const leaver = await d.agent({ agent: 'leaver-two' });
    const left = await leaver.request({ action: 'deploy', description: 'stays', wait: false });
    leaver.close();
    await new Promise((r) => setTimeout(r, 600));
    expect((await d.cli(['prune'])).code).toBe(0);
    expect((await admin.call('request.get', { requestId: left.requestId })).request.status).toBe(
      'pending',
    );
  });
});
