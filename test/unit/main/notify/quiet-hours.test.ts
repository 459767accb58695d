import { describe, expect, it } from 'vitest';
import { isQuietAt, msUntilQuietEnds } from '../../../../main/notify/quiet-hours';

const overnight = { enabled: true, start: '22:00', end: '07:00' };
const at = (isoLocal: string): number => Date.parse(isoLocal);

describe('quiet hours', () => {
  it('spans midnight: quiet from 22:00 up to but not including 07:00', () => {
    const z = 'UTC';
    expect(isQuietAt(at('2026-01-05T21:59:59Z'), overnight, z)).toBe(false);
    expect(isQuietAt(at('2026-01-05T22:00:00Z'), overnight, z)).toBe(true);
    expect(isQuietAt(at('2026-01-05T23:59:00Z'), overnight, z)).toBe(true);
    expect(isQuietAt(at('2026-01-06T00:00:00Z'), overnight, z)).toBe(true);
    expect(isQuietAt(at('2026-01-06T06:59:59Z'), overnight, z)).toBe(true);
    expect(isQuietAt(at('2026-01-06T07:00:00Z'), overnight, z)).toBe(false);
    expect(isQuietAt(at('2026-01-06T12:00:00Z'), overnight, z)).toBe(false);
  });

  it('handles a window inside one day and an empty or disabled window', () => {
    const day = { enabled: true, start: '12:00', end: '13:30' };
    expect(isQuietAt(at('2026-01-05T11:59:00Z'), day, 'UTC')).toBe(false);
    expect(isQuietAt(at('2026-01-05T13:00:00Z'), day, 'UTC')).toBe(true);
    expect(isQuietAt(at('2026-01-05T13:30:00Z'), day, 'UTC')).toBe(false);
    expect(isQuietAt(at('2026-01-05T23:00:00Z'), day, 'UTC')).toBe(false);
    const empty = { enabled: true, start: '09:00', end: '09:00' };
    expect(isQuietAt(at('2026-01-05T09:00:00Z'), empty, 'UTC')).toBe(false);
    expect(isQuietAt(at('2026-01-05T23:00:00Z'), { ...overnight, enabled: false }, 'UTC')).toBe(
      false,
    );
  });

  it('uses local time, not UTC', () => {
    // 21:30 UTC is 22:30 in Berlin (winter, UTC+1) and 16:30 in New York (UTC-5).
    const t = at('2026-01-05T21:30:00Z');
    expect(isQuietAt(t, overnight, 'Europe/Berlin')).toBe(true);
    expect(isQuietAt(t, overnight, 'America/New_York')).toBe(false);
    // 06:30 UTC is 07:30 in Berlin: over there, quiet hours have ended.
    expect(isQuietAt(at('2026-01-06T06:30:00Z'), overnight, 'Europe/Berlin')).toBe(false);
    expect(isQuietAt(at('2026-01-06T06:30:00Z'), overnight, 'UTC')).toBe(true);
  });

  it('tells how long until they end, across midnight', () => {
    expect(msUntilQuietEnds(at('2026-01-05T23:30:00Z'), overnight, 'UTC')).toBe(7.5 * 3_600_000);
    expect(msUntilQuietEnds(at('2026-01-06T06:59:30.250Z'), overnight, 'UTC')).toBe(29_750);
    // 23:30 in Berlin is 22:30 UTC; 07:00 Berlin is 06:00 UTC.
    expect(msUntilQuietEnds(at('2026-01-05T22:30:00Z'), overnight, 'Europe/Berlin')).toBe(
      7.5 * 3_600_000,
    );
  });
});
