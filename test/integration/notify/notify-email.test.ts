import { describe, expect, it, vi } from 'vitest';
import { EmailChannel } from '../../../main/notify/email-channel';
import {
  closersAfterEach,
  makeRequest,
  startChannelDispatcher,
} from '../../support/notify-fixtures';
import { startSmtpReceiver } from '../../support/notify-receivers';

const closers = closersAfterEach();

async function setup(failFirst = 0) {
  const smtp = await startSmtpReceiver({ failFirst });
  closers.push(smtp.close);
  const { clock, bus, logged } = startChannelDispatcher({
    closers,
    channels: {
      email: {
        enabled: true,
        minUrgency: 'high',
        host: '127.0.0.1',
        port: smtp.port,
        from: 'Gatehouse <gatehouse@example.test>',
        to: 'owner@example.test, second@example.test',
        initialBackoffMs: 2000,
      },
    },
    make: ({ clock, settings, log }) =>
      new EmailChannel({
        clock,
        getConfig: () => settings.notifications.channels.email,
        log,
      }),
  });
  return { smtp, clock, bus, logged };
}

describe('email channel against a real SMTP server', () => {
  it('mails a high-urgency request to every recipient, and not a normal one', async () => {
    const { smtp, bus } = await setup();
    bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'normal' }) });
    const r = makeRequest({
      urgency: 'high',
      agent: 'deployer',
      action: 'deploy',
      description: 'deploy release 2.3 to production',
      rationale: 'the release was approved in the planning meeting',
    });
    bus.publish({ type: 'request.created', request: r });
    await vi.waitFor(() => expect(smtp.mails).toHaveLength(1));
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe('gatehouse@example.test');
    expect(mail.to).toEqual(['owner@example.test', 'second@example.test']);
    expect(mail.subject).toBe('[Gatehouse URGENT] deployer wants to deploy');
    expect(mail.text).toContain('Wants to: deploy release 2.3 to production (deploy)');
    expect(mail.text).toContain('Why: the release was approved in the planning meeting');
    expect(mail.text).toContain(`gatehouse approve ${r.requestId}`);
    expect(mail.raw).toMatch(/^X-Gatehouse-Notification: /m);
  });

  it('retries a server that refuses first (451) and delivers on the second attempt', async () => {
    const { smtp, bus, clock, logged } = await setup(1);
    bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'high' }) });
    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    expect(smtp.rejected()).toBe(1);
    expect(smtp.mails).toHaveLength(0);
    clock.advance(2000);
    await vi.waitFor(() => expect(smtp.mails).toHaveLength(1));
    expect(logged).toEqual(['email attempt 1 failed, retrying in 2000 ms']);
  });
});
