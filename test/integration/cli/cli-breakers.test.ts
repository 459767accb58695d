import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BreakerRow, BreakerTrip } from '../../../shared/protocol/guard-methods';
import { TestDaemon } from '../../support/daemon';

interface BreakersJson {
  breakers: BreakerRow[];
  recentTrips: BreakerTrip[];
}

const rateLimited = {
  ok: false,
  source: 'llm',
  provider: 'other',
  httpStatus: 429,
  message: 'rate limited',
} as const;

/** `gatehouse breakers` as the person reads it, over a real daemon and real agents. */
describe('gatehouse breakers (real daemon, real CLI)', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterAll(async () => {
    await d.stop();
  });

  it('has a heading for each part, open breakers first, and --json carries the trips the text shows', async () => {
    const quiet = await d.cli(['breakers']);
    expect(quiet.stdout).toBe(
      'Breakers now (open first):\n  none open or half-open\n\nRecent trips (last 24 hours, newest first):\n  none\n',
    );

    // A stagnation stop trips and closes again (a recent trip, no open row); a rate limit puts
    // another session into conservative mode (an open safety switch).
    const stagnant = await d.agent({ agent: 'stagnant' });
    for (let i = 0; i < 3; i++) await stagnant.check({ progress: false });
    const cautious = await d.agent({ agent: 'cautious' });
    await cautious.outcome(rateLimited);
    expect((await cautious.check({})).mode).toBe('conservative');

    const text = (await d.cli(['breakers'])).stdout;
    const now = text.indexOf('Breakers now (open first):');
    const trips = text.indexOf('Recent trips (last 24 hours, newest first):');
    expect(now).toBe(0);
    expect(trips).toBeGreaterThan(now);
    const nowPart = text.slice(now, trips);
    expect(nowPart).toMatch(new RegExp(`safety_switch:${cautious.sessionId} +open`));

    const json = JSON.parse((await d.cli(['breakers', '--json'])).stdout) as BreakersJson;
    const states = json.breakers.map((b) => b.state);
    // Every open row comes before any other.
    expect(states.slice(0, states.lastIndexOf('open') + 1).every((s) => s === 'open')).toBe(true);
    expect(json.breakers.map((b) => b.name)).toContain(`safety_switch:${cautious.sessionId}`);
    // The text's trips are the JSON's trips, one line each, newest first.
    const tripPart = text.slice(trips);
    expect(json.recentTrips.length).toBeGreaterThanOrEqual(1);
    for (const trip of json.recentTrips) expect(tripPart).toContain(trip.breaker);
    expect(json.recentTrips.map((t) => t.reason)).toEqual(
      expect.arrayContaining(['STAGNATION_DETECTED']),
    );
    // The provider's row is closed (it counts the rate limit): after the open switch.
    expect(json.breakers.map((b) => `${b.name} ${b.state}`)).toEqual([
      `safety_switch:${cautious.sessionId} open`,
      'provider:other closed',
    ]);

    // The session ends: its safety switch guards nothing any more and is not shown open.
    await cautious.end('completed');
    cautious.close();
    stagnant.close();
    const after = JSON.parse((await d.cli(['breakers', '--json'])).stdout) as BreakersJson;
    expect(after.breakers.map((b) => b.name)).not.toContain(`safety_switch:${cautious.sessionId}`);
    expect(after.breakers.map((b) => b.name)).toEqual(['provider:other']);
    expect(after.recentTrips).toEqual(json.recentTrips);
    const afterText = (await d.cli(['breakers'])).stdout;
    expect(afterText).not.toContain(`safety_switch:${cautious.sessionId}`);
  });
});
