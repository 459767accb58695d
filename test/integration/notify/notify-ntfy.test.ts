import { describe, expect, it, vi } from 'vitest';
import { NtfyChannel } from '../../../main/notify/ntfy-channel';
import {
  closersAfterEach,
  makeRequest,
  startChannelDispatcher,
} from '../../support/notify-fixtures';
import { startNtfyServer } from '../../support/ntfy-server';

const closers = closersAfterEach();

async function setup(o: { serverToken?: string; token?: string } = {}) {
  const ntfy = await startNtfyServer(o.serverToken ? { token: o.serverToken } : {});
  closers.push(ntfy.close);
  const { bus, logged } = startChannelDispatcher({
    closers,
    channels: {
      ntfy: { enabled: true, server: ntfy.url, topic: 'gh-alerts', token: o.token ?? '' },
    },
    make: ({ clock, settings, log }) =>
      new NtfyChannel({
        clock,
        getConfig: () => settings.notifications.channels.ntfy,
        buttonsFor: (id) => ({
          click: `https://gate.example.test/r/${id}`,
          actions: [
            { action: 'http', label: 'Approve', url: `https://gate.example.test/d/${id}/approve` },
            { action: 'http', label: 'Deny', url: `https://gate.example.test/d/${id}/deny` },
          ],
        }),
        log,
      }),
  });
  return { ntfy, bus, logged };
}

describe('ntfy channel against a local ntfy server', () => {
  it('publishes a request as JSON: title, what/why/command/agent/project, priority, tags, click and buttons', async () => {
    const { ntfy, bus } = await setup();
    bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'low' }) });
    const r = makeRequest({
      urgency: 'high',
      agent: 'deployer',
      project: '/home/me/shop',
      action: 'deploy',
      description: 'deploy release 2.3 to production',
      rationale: 'the release was approved',
      command: 'make deploy ENV=prod',
      sessionId: 's2',
    });
    bus.publish({ type: 'request.created', request: r });
    await vi.waitFor(() => expect(ntfy.messages).toHaveLength(1)); // normal is the minimum
    const m = ntfy.messages[0]!;
    expect(m).toMatchObject({
      topic: 'gh-alerts',
      title: 'deployer wants to deploy',
      priority: 4,
      tags: ['warning', 'gatehouse'],
      click: `https://gate.example.test/r/${r.requestId}`,
    });
    expect(m.message.split('\n')).toEqual([
      'deploy release 2.3 to production (deploy)',
      'Why: the release was approved',
      'Command: make deploy ENV=prod',
      'Agent: deployer in /home/me/shop',
    ]);
    expect(m.actions?.map((a) => [a.action, a.label])).toEqual([
      ['http', 'Approve'],
      ['http', 'Deny'],
    ]);
  });

  it('gives a critical request the highest priority', async () => {
    const { ntfy, bus } = await setup();
    bus.publish({
      type: 'request.created',
      request: makeRequest({ urgency: 'normal', risk: 'critical' }),
    });
    await vi.waitFor(() => expect(ntfy.messages).toHaveLength(1));
    expect(ntfy.messages[0]).toMatchObject({ priority: 5, tags: ['rotating_light', 'gatehouse'] });
  });

  it('sends the access token of a protected topic, and a wrong one fails without retrying', async () => {
    const ok = await setup({ serverToken: 'tk_abc', token: 'tk_abc' });
    ok.bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'high' }) });
    await vi.waitFor(() => expect(ok.ntfy.messages).toHaveLength(1));

    const wrong = await setup({ serverToken: 'tk_abc', token: 'tk_nope' });
    wrong.bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'high' }) });
    await vi.waitFor(() => expect(wrong.logged.join('\n')).toMatch(/ntfy channel failed/));
    expect(wrong.ntfy.messages).toHaveLength(0);
  });
});
