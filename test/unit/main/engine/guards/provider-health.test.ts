import { describe, expect, it } from 'vitest';
import {
  ProviderHealth,
  errorClassOf,
  statusOf,
} from '../../../../../main/engine/guards/provider-health';
import { GuardSettings } from '../../../../../shared/settings/guards';
import { FakeClock } from '../../../../support/fake-clock';

const policy = () => GuardSettings.parse({}).providers;

describe('statusOf / errorClassOf', () => {
  it('reads the status from httpStatus first, then from the message', () => {
    expect(statusOf(429, '[402] nope')).toBe(429);
    expect(statusOf(undefined, '[402] Insufficient credits')).toBe(402);
    expect(statusOf(undefined, 'Request failed with status code 503')).toBe(503);
    expect(statusOf(undefined, 'HTTP 401 Unauthorized')).toBe(401);
    expect(statusOf(undefined, '403 Forbidden')).toBe(403);
    expect(statusOf(undefined, 'socket hang up after 250 ms')).toBeUndefined();
    expect(statusOf(undefined, 'status 200')).toBeUndefined();
  });

  it('classifies by status, unknown as transient', () => {
    expect([402, 401, 403, 429, 500, undefined].map(errorClassOf)).toEqual([
      'payment',
      'auth',
      'auth',
      'rateLimit',
      'transient',
      'transient',
    ]);
  });
});

describe('ProviderHealth', () => {
  it('opens on one 402 for five minutes, then probes and closes', () => {
    const clock = new FakeClock();
    const h = new ProviderHealth(clock, policy);
    const [v] = h.recordFailure('openrouter', 402);
    expect(v).toMatchObject({
      breaker: 'provider',
      tripped: true,
      reason: 'PROVIDER_PAYMENT_REQUIRED',
    });
    expect(h.check('openrouter')[0]?.tripped).toBe(true);
    clock.advance(5 * 60_000 - 1);
    expect(h.isOpen('openrouter')).toBe(true);
    clock.advance(1);
    expect(h.check('openrouter')).toEqual([]); // the probe
    expect(h.check('openrouter')[0]?.state).toBe('half_open'); // a second caller waits
    h.recordSuccess('openrouter');
    expect(h.check('openrouter')).toEqual([]);
    expect(h.list()[0]).toMatchObject({ state: 'closed', totalTrips: 1 });
  });

  it('opens on one 401 or 403 for thirty minutes', () => {
    const clock = new FakeClock();
    const h = new ProviderHealth(clock, policy);
    h.recordFailure('a', 401);
    h.recordFailure('b', 403);
    clock.advance(29 * 60_000);
    expect(h.isOpen('a') && h.isOpen('b')).toBe(true);
    clock.advance(60_000);
    expect(h.isOpen('a') || h.isOpen('b')).toBe(false);
  });

  it('needs three 429s, and a success in between breaks the streak', () => {
    const clock = new FakeClock();
    const h = new ProviderHealth(clock, policy);
    h.recordFailure('p', 429);
    h.recordFailure('p', 429);
    h.recordSuccess('p');
    h.recordFailure('p', 429);
    h.recordFailure('p', 429);
    expect(h.isOpen('p')).toBe(false);
    expect(h.recordFailure('p', 429)[0]?.reason).toBe('PROVIDER_RATE_LIMITED');
    clock.advance(30_000);
    expect(h.isOpen('p')).toBe(false);
  });

  it('needs five 5xx or unclassified failures and cools down for a minute', () => {
    const clock = new FakeClock();
    const h = new ProviderHealth(clock, policy);
    h.recordFailure('p', 500);
    h.recordFailure('p', 502);
    h.recordFailure('p', undefined);
    h.recordFailure('p', 503);
    expect(h.isOpen('p')).toBe(false);
    expect(h.recordFailure('p', undefined)[0]?.reason).toBe('PROVIDER_UNAVAILABLE');
    clock.advance(59_999);
    expect(h.isOpen('p')).toBe(true);
  });

  it('a success does not shorten an open cooldown', () => {
    const clock = new FakeClock();
    const h = new ProviderHealth(clock, policy);
    h.recordFailure('p', 402);
    clock.advance(60_000);
    h.recordSuccess('p');
    expect(h.isOpen('p')).toBe(true);
    expect(h.check('p')[0]?.tripped).toBe(true);
  });

  it('a failed probe reopens at once', () => {
    const clock = new FakeClock();
    const h = new ProviderHealth(clock, policy);
    h.recordFailure('p', 401);
    clock.advance(30 * 60_000);
    expect(h.check('p')).toEqual([]);
    expect(h.recordFailure('p', 401)[0]?.tripped).toBe(true);
    expect(h.isOpen('p')).toBe(true);
  });

  it('survives a restart through its snapshot', () => {
    const clock = new FakeClock();
    const h = new ProviderHealth(clock, policy);
    h.recordFailure('p', 402);
    const snap = JSON.parse(JSON.stringify(h.snapshot('p')));
    const later = new FakeClock(clock.now() + 60_000);
    const restored = new ProviderHealth(later, policy);
    restored.restore('p', snap);
    expect(restored.isOpen('p')).toBe(true);
    later.advance(4 * 60_000);
    expect(restored.isOpen('p')).toBe(false);
    expect(restored.list()[0]).toMatchObject({ state: 'half_open', lastStatus: 402 });
  });
});
