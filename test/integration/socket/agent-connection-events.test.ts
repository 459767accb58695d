/**
 * Whether an asking agent is still there reaches the person's views as it changes:
 * when a session with requests in the queue loses its last connection the daemon says
 * `session.connection` (connected: false), and again when the agent comes back; the request
 * records say the same. A session with nothing in the queue says nothing, so the hooks'
 * connect-per-call does not make every tray and dashboard reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseEvent } from '../../../shared/events';
import { TestDaemon } from '../../support/daemon';
import { subscribeEvents, waitForEvent } from '../../support/events';

let d: TestDaemon;
let admin: AdminClient;

beforeAll(async () => {
  d = await TestDaemon.start({}, ['--no-dashboard']);
  admin = await d.admin();
  await subscribeEvents(admin);
});
afterAll(async () => {
  admin.close();
  await d.stop();
});

const connectionOf =
  (sessionId: string, connected: boolean) =>
  (e: GatehouseEvent): boolean =>
    e.type === 'session.connection' && e.sessionId === sessionId && e.connected === connected;

describe('an asking agent leaving and coming back', () => {
  it('is told to the views at once, and the request record follows', async () => {
    const agent = await d.agent({ agent: 'wanderer', reconnect: false });
    const filed = await agent.request({ action: 'deploy', description: 'deploy', wait: false });
    const { request } = await admin.call('request.get', { requestId: filed.requestId });
    expect(request.agentConnected).toBe(true);

    const gone = waitForEvent(admin, connectionOf(request.sessionId, false));
    agent.close();
    expect(await gone).toMatchObject({ agent: 'wanderer', connected: false });
    expect(
      (await admin.call('request.get', { requestId: filed.requestId })).request.agentConnected,
    ).toBe(false);

    const back = waitForEvent(admin, connectionOf(request.sessionId, true));
    const again = await d.agent({ agent: 'wanderer', sessionKey: agent.sessionKey });
    expect(await back).toMatchObject({ connected: true });
    expect(
      (await admin.call('request.get', { requestId: filed.requestId })).request.agentConnected,
    ).toBe(true);
    again.close();
  });

  it('says nothing for a session with nothing in the queue', async () => {
    const seen: GatehouseEvent[] = [];
    const idle = await d.agent({ agent: 'idle', reconnect: false });
    await idle.classify({ action: 'read_file' });
    const quiet = waitForEvent(
      admin,
      (e) => {
        if (e.type === 'session.connection') seen.push(e);
        return false;
      },
      1500,
    ).catch(() => undefined);
    idle.close();
    // A session that has requests in the queue, closed after the idle one, is the marker
    // that the idle close has been handled.
    const marker = await d.agent({ agent: 'marker', reconnect: false });
    const m = await marker.request({ action: 'deploy', description: 'x', wait: false });
    const sid = (await admin.call('request.get', { requestId: m.requestId })).request.sessionId;
    const markerGone = waitForEvent(admin, connectionOf(sid, false));
    marker.close();
    await markerGone;
    await quiet;
    expect(seen.filter((e) => e.type === 'session.connection' && e.agent === 'idle')).toEqual([]);
  });
});
