import { afterEach, describe, expect, it } from 'vitest';
import { localTime } from '../../../clients/cli/format';
import { formatTime } from '../../../renderer/src/util/format';
import { formatLocalDateTime, formatLocalTime, localZoneName } from '../../../shared/time-format';

const original = process.env.TZ;
afterEach(() => {
  if (original === undefined) delete process.env.TZ;
  else process.env.TZ = original;
});

describe('one time format, in the local zone, on every surface', () => {
  it('writes today as a clock and another day with its date, in the zone of the machine', () => {
    process.env.TZ = 'Asia/Kolkata';
    const at = '2026-01-05T10:00:00.000Z';
    expect(formatLocalTime(at, Date.parse('2026-01-05T12:00:00Z'))).toBe('15:30:00');
    expect(formatLocalTime(at, Date.parse('2026-01-07T12:00:00Z'))).toBe('2026-01-05 15:30');
    expect(localZoneName(Date.parse(at))).toMatch(/GMT\+5:30|IST/);
    // A document read on other days (the session report) always has the date.
    expect(formatLocalDateTime(at)).toBe('2026-01-05 15:30');
    // The CLI and the dashboard write it the same way.
    expect(localTime(at, Date.parse('2026-01-07T12:00:00Z'))).toBe('2026-01-05 15:30');
    expect(formatTime(at)).toBe(formatLocalTime(at));
    process.env.TZ = 'America/New_York';
    expect(formatLocalTime(at, Date.parse('2026-01-07T12:00:00Z'))).toBe('2026-01-05 05:00');
    // The zone's name follows the change too (its formatter is kept between calls).
    expect(localZoneName(Date.parse(at))).toMatch(/EST|GMT-5/);
    expect(localZoneName(Date.parse('2026-07-05T10:00:00.000Z'))).toMatch(/EDT|GMT-4/);
  });
});
