import { describe, expect, it, vi } from 'vitest';
import { toOutgoing } from '../../../main/notify/digest';
import { newRequestItem } from '../../../main/notify/compose';
import { WebhookChannel, type WebhookPayload } from '../../../main/notify/webhook-channel';
import { FakeClock } from '../../support/fake-clock';
import {
  closersAfterEach,
  makeRequest,
  makeSettings,
  startDispatcher,
  TestBus,
} from '../../support/notify-fixtures';
import { startWebhookReceiver } from '../../support/notify-receivers';

const SECRET = 'test-secret-0123456789';
const closers = closersAfterEach();

async function receiver(statuses?: number[]) {
  const r = await startWebhookReceiver(SECRET, statuses);
  closers.push(r.close);
  return r;
}

function channelFor(url: string, clock: FakeClock, overrides: Record<string, unknown> = {}) {
  const logged: string[] = [];
  const config = makeSettings({
    channels: { webhook: { enabled: true, url, secret: SECRET, ...overrides } },
  }).notifications.channels.webhook;
  const channel = new WebhookChannel({
    clock,
    getConfig: () => config,
    log: (m) => logged.push(m),
  });
  return { channel, logged };
}

const sample = () => toOutgoing('n-1', [newRequestItem(makeRequest({ urgency: 'high' }))]);

describe('webhook channel against a real HTTP receiver', () => {
  it('POSTs JSON whose HMAC-SHA256 signature the receiver verifies', async () => {
    const r = await receiver();
    const clock = new FakeClock();
    const { channel } = channelFor(r.url, clock);
    const n = sample();
    await channel.send(n);
    expect(r.hits).toHaveLength(1);
    const hit = r.hits[0]!;
    expect(hit.signatureValid).toBe(true);
    expect(hit.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(hit.delivery).toBe('n-1');
    const payload = JSON.parse(hit.body) as WebhookPayload;
    expect(payload.type).toBe('gatehouse.notification');
    expect(payload.sentAt).toBe(new Date(clock.now()).toISOString());
    expect(payload.notification.requestId).toBe(n.requestId);
    expect(payload.notification.body).toContain(`gatehouse approve ${n.requestId}`);
  });

  it('retries a receiver that fails first, after an exponential back-off on the clock', async () => {
    const r = await receiver([500, 503, 200]);
    const clock = new FakeClock();
    const { channel, logged } = channelFor(r.url, clock, { initialBackoffMs: 1000 });
    const sent = channel.send(sample());

    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    expect(r.hits.map((h) => h.status)).toEqual([500]);
    clock.advance(999);
    expect(r.hits).toHaveLength(1); // the back-off is not over yet
    clock.advance(1);
    await vi.waitFor(() => expect(r.hits).toHaveLength(2));
    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    clock.advance(1999);
    expect(r.hits).toHaveLength(2); // the second wait is twice as long
    clock.advance(1);
    await sent;

    expect(r.hits.map((h) => h.status)).toEqual([500, 503, 200]);
    // Same bytes and signature on every attempt, one delivery id to de-duplicate by.
    expect(new Set(r.hits.map((h) => h.body)).size).toBe(1);
    expect(r.hits.every((h) => h.signatureValid && h.delivery === 'n-1')).toBe(true);
    expect(logged).toEqual([
      'webhook attempt 1 failed, retrying in 1000 ms',
      'webhook attempt 2 failed, retrying in 2000 ms',
    ]);
  });

  it('gives up after maxAttempts and rejects', async () => {
    const r = await receiver([500]);
    const clock = new FakeClock();
    const { channel } = channelFor(r.url, clock, { maxAttempts: 2, initialBackoffMs: 10 });
    const sent = channel.send(sample());
    const outcome = expect(sent).rejects.toThrow('HTTP 500');
    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    clock.advance(10);
    await outcome;
    expect(r.hits).toHaveLength(2);
  });

  it('does not retry a rejected signature (4xx)', async () => {
    const r = await receiver();
    const clock = new FakeClock();
    const { channel } = channelFor(r.url, clock, { secret: 'wrong-secret' });
    await expect(channel.send(sample())).rejects.toThrow('HTTP 401');
    expect(r.hits).toHaveLength(1);
    expect(r.hits[0]!.signatureValid).toBe(false);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('retries when nothing listens, and the dispatcher only logs the failure', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    closers.pop();
    const clock = new FakeClock();
    const bus = new TestBus();
    const logged: string[] = [];
    const settings = makeSettings({
      reminder: { enabled: false }, // only the back-off may set timers here
      channels: {
        desktop: { enabled: false },
        webhook: { enabled: true, url, secret: SECRET, maxAttempts: 2, initialBackoffMs: 50 },
      },
    });
    const d = startDispatcher({
      clock,
      bus,
      settings,
      channels: [
        new WebhookChannel({
          clock,
          getConfig: () => settings.notifications.channels.webhook,
          log: (m) => logged.push(m),
        }),
      ],
      log: (m) => logged.push(m),
    });
    expect(() => bus.publish({ type: 'request.created', request: makeRequest() })).not.toThrow();
    await vi.waitFor(() => expect(clock.pendingTimers()).toBeGreaterThan(0));
    clock.advance(50);
    await vi.waitFor(() =>
      expect(logged).toEqual([
        'webhook attempt 1 failed, retrying in 50 ms',
        'webhook channel failed',
      ]),
    );
    d.stop();
  });

  it('goes from a request event through the dispatcher to the receiver', async () => {
    const r = await receiver();
    const clock = new FakeClock();
    const bus = new TestBus();
    const settings = makeSettings({
      channels: { webhook: { enabled: true, url: r.url, secret: SECRET, minUrgency: 'normal' } },
    });
    const d = startDispatcher({
      clock,
      bus,
      settings,
      channels: [
        new WebhookChannel({ clock, getConfig: () => settings.notifications.channels.webhook }),
      ],
    });
    bus.publish({ type: 'request.created', request: makeRequest({ urgency: 'low' }) });
    const wanted = makeRequest({ urgency: 'normal', description: 'deploy v2 to staging' });
    bus.publish({ type: 'request.created', request: wanted });
    await vi.waitFor(() => expect(r.hits).toHaveLength(1));
    const payload = JSON.parse(r.hits[0]!.body) as WebhookPayload;
    expect(payload.notification.requestId).toBe(wanted.requestId);
    expect(payload.notification.body).toContain('deploy v2 to staging');
    d.stop();
  });
});
