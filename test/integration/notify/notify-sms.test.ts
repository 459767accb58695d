import { describe, expect, it, vi } from 'vitest';
import { SmsChannel } from '../../../main/notify/sms-channel';
import {
  closersAfterEach,
  makeRequest,
  startChannelDispatcher,
} from '../../support/notify-fixtures';
import { startTwilioReceiver } from '../../support/twilio-receiver';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token';

const closers = closersAfterEach();

async function setup(o: { failFirst?: number; authToken?: string; withLinks?: boolean } = {}) {
  const twilio = await startTwilioReceiver(SID, TOKEN, { failFirst: o.failFirst ?? 0 });
  closers.push(twilio.close);
  const { clock, bus, logged } = startChannelDispatcher({
    closers,
    channels: {
      sms: {
        enabled: true,
        accountSid: SID,
        authToken: o.authToken ?? TOKEN,
        from: '+15550001111',
        to: '+15552223333',
        apiBase: twilio.apiBase,
      },
    },
    make: ({ clock, settings, log }) =>
      new SmsChannel({
        clock,
        getConfig: () => settings.notifications.channels.sms,
        ...(o.withLinks === false
          ? {}
          : {
              linksFor: (id: string, channel: string) => ({
                page: `https://gate.example.test/r/${id}?t=signed-${channel}`,
                approve: `https://gate.example.test/r/${id}?t=signed-${channel}&d=approve`,
                deny: `https://gate.example.test/r/${id}?t=signed-${channel}&d=deny`,
              }),
            }),
        initialBackoffMs: 1_000,
        log,
      }),
  });
  return { twilio, clock, bus, logged };
}

describe('SMS channel against a local Twilio Messages API', () => {
  it('texts a high request with its signed link, in the shape Twilio takes, and not a normal one', async () => {
    const { twilio, bus } = await setup();
    bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'normal' }) });
    const r = makeRequest({
      urgency: 'high',
      agent: 'deployer',
      action: 'deploy',
      description: 'Deploy build 4711 to production',
      sessionId: 's2',
    });
    bus.publish({ type: 'request.created', request: r });
    await vi.waitFor(() => expect(twilio.texts).toHaveLength(1));
    const text = twilio.texts[0]!;
    expect(text.from).toBe('+15550001111');
    expect(text.to).toBe('+15552223333');
    expect(text.body).toBe(
      `Gatehouse URGENT · deployer wants to deploy\nDeploy build 4711 to production\nDecide: https://gate.example.test/r/${r.requestId}?t=signed-sms`,
    );
    expect(twilio.refusals).toEqual([]);
  });

  it('shortens a long description to fit, and never cuts the link', async () => {
    const { twilio, bus } = await setup();
    const r = makeRequest({ urgency: 'high', description: `Rewrite ${'every file '.repeat(60)}` });
    bus.publish({ type: 'request.created', request: r });
    await vi.waitFor(() => expect(twilio.texts).toHaveLength(1));
    const [title, what, decide] = twilio.texts[0]!.body.split('\n');
    expect(title).toMatch(/^Gatehouse URGENT · /);
    expect(what).toMatch(/^Rewrite every file every file .*…$/);
    expect(decide).toBe(`Decide: https://gate.example.test/r/${r.requestId}?t=signed-sms`);
    expect(twilio.texts[0]!.body.length).toBeLessThanOrEqual(300);
  });

  it('without remote links, says which command decides at the machine', async () => {
    const { twilio, bus } = await setup({ withLinks: false });
    const r = makeRequest({ urgency: 'high' });
    bus.publish({ type: 'request.created', request: r });
    await vi.waitFor(() => expect(twilio.texts).toHaveLength(1));
    expect(twilio.texts[0]!.body).toContain(`gatehouse approve ${r.requestId}`);
  });

  it('retries a 503 with back-off and gives up at once on bad credentials', async () => {
    const flaky = await setup({ failFirst: 1 });
    flaky.bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'high' }) });
    await vi.waitFor(() => expect(flaky.twilio.refusals).toHaveLength(1));
    await vi.waitFor(() => expect(flaky.clock.pendingTimers()).toBe(1));
    flaky.clock.advance(1_000);
    await vi.waitFor(() => expect(flaky.twilio.texts).toHaveLength(1));

    const wrong = await setup({ authToken: 'wrong' });
    wrong.bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'high' }) });
    await vi.waitFor(() =>
      expect(wrong.logged.some((m) => m.includes('sms channel failed'))).toBe(true),
    );
    expect(wrong.twilio.refusals).toEqual([{ status: 401, code: 20003 }]);
    expect(wrong.clock.pendingTimers()).toBe(0);
  });
});
