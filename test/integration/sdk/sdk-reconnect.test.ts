import { afterEach, describe, expect, it } from 'vitest';
import { GatehouseClient } from '../../../clients/sdk/client';
import { TestDaemon, waitForPending } from '../../support/daemon';

/**
 * The SDK's documented path fails closed from the first line and survives a daemon that is
 * stopped, started and restarted: a real daemon process, a real socket.
 */
describe('SDK against a daemon that comes and goes', () => {
  let d: TestDaemon | undefined;
  let client: GatehouseClient | undefined;
  afterEach(async () => {
    client?.close();
    await d?.stop();
    d = client = undefined;
  });

  it('fails closed while Gatehouse is down, then connects by itself once it is up', async () => {
    d = await TestDaemon.start();
    await d.signal('SIGTERM');
    client = await GatehouseClient.connect({
      agent: 'sdk-late',
      socketPath: d.socketPath,
      reconnectWaitMs: 300,
      maxBackoffMs: 200,
    });
    expect(client.connected).toBe(false);
    expect(client.sessionId).toBeUndefined();

    const denied = await client.request({ action: 'git_push', description: 'Push' });
    expect(denied).toMatchObject({ status: 'denied', decidedBy: 'system' });
    expect(denied.reason).toMatch(/^GATEHOUSE_UNREACHABLE: .*not approved$/);
    expect(await client.classify({ action: 'read_file' })).toMatchObject({
      tier: 'ask',
      rule: 'sdk:unreachable',
    });
    const stop = await client.check();
    expect(stop.allowed).toBe(false);
    expect(stop.verdicts[0]).toMatchObject({ reason: 'GATEHOUSE_UNREACHABLE', tripped: true });

    const reconnected = new Promise((resolve) => client!.once('reconnected', resolve));
    const firstHello = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (client!.connected) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    await d.launch();
    await firstHello;
    expect(client.sessionId).toMatch(/^ses-/);
    expect((await client.classify({ action: 'read_file' })).tier).toBe('auto');
    // The first hello is not a reconnect: nothing was resumed.
    expect(await Promise.race([reconnected, Promise.resolve('no')])).toBe('no');
  });

  it('resumes the session and the waiting request across a restart, and ends cleanly', async () => {
    d = await TestDaemon.start();
    client = await GatehouseClient.connect({
      agent: 'sdk-restart',
      socketPath: d.socketPath,
      reconnectWaitMs: 20_000,
      maxBackoffMs: 200,
    });
    const sessionId = client.sessionId;
    const admin = await d.admin();
    const answer = client.request({ action: 'git_push', description: 'Push v1.2', wait: true });
    const before = await waitForPending(admin, 'git_push');
    admin.close();

    const reconnected = new Promise((resolve) => client!.once('reconnected', resolve));
    await d.signal('SIGTERM');
    await d.launch();
    await reconnected;
    expect(client.sessionId).toBe(sessionId);

    const admin2 = await d.admin();
    // The request sent again after the restart is the same pending request, not a second one.
    const after = await waitForPending(admin2, 'git_push');
    expect(after.requestId).toBe(before.requestId);
    const { requests } = await admin2.call('pending.list', {});
    expect(requests.filter((r) => r.action === 'git_push')).toHaveLength(1);
    await admin2.call('decide', { requestId: before.requestId, decision: 'approve' });
    admin2.close();
    expect(await answer).toMatchObject({
      requestId: before.requestId,
      status: 'approved',
      decidedBy: 'human',
    });

    const { summary } = await client.end('completed');
    expect(summary.sessionId).toBe(sessionId);
    expect(summary.text).not.toMatch(/not recorded/);
  });

  it('end() after Gatehouse went away returns a summary that says it was not recorded', async () => {
    d = await TestDaemon.start();
    client = await GatehouseClient.connect({
      agent: 'sdk-orphan',
      socketPath: d.socketPath,
      reconnectWaitMs: 200,
    });
    await d.signal('SIGTERM');
    const { summary } = await client.end('completed');
    expect(summary.text).toMatch(/could not be reached.*not recorded/);
  });

  it('with reconnect: false, connect throws when Gatehouse is not running', async () => {
    await expect(
      GatehouseClient.connect({
        agent: 'x',
        socketPath: '/nonexistent/gh/agent.sock',
        reconnect: false,
      }),
    ).rejects.toThrow(/not running/);
  });
});
