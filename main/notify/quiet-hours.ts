import type { z } from 'zod';
import type { QuietHoursSettings } from '../../shared/settings/notifications';

type QuietHours = z.infer<typeof QuietHoursSettings>;

const MINUTES_PER_DAY = 24 * 60;

const toMinutes = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Minute of the local day (0..1439) and second within it at `ms`. Local means the process's
 * time zone, or `timeZone` (an IANA name) when given — tests pin one so they do not depend on
 * the machine.
 */
export function localTimeOfDay(ms: number, timeZone?: string): { minute: number; second: number } {
  if (!timeZone) {
    const d = new Date(ms);
    return { minute: d.getHours() * 60 + d.getMinutes(), second: d.getSeconds() };
  }
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, fmt);
  }
  const parts = Object.fromEntries(fmt.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return {
    minute: Number(parts.hour) * 60 + Number(parts.minute),
    second: Number(parts.second),
  };
}

/**
 * Whether `ms` falls in the quiet window. The window is [start, end) in local time; when start
 * is after end it spans midnight (22:00–07:00 is quiet at 23:30 and at 06:59, not at 07:00).
 * start == end is an empty window.
 */
export function isQuietAt(ms: number, quiet: QuietHours, timeZone?: string): boolean {
  if (!quiet.enabled) return false;
  const start = toMinutes(quiet.start);
  const end = toMinutes(quiet.end);
  if (start === end) return false;
  const { minute } = localTimeOfDay(ms, timeZone);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * Milliseconds from `ms` until the local clock next reads `quiet.end`. Across a daylight-saving
 * change this can be an hour off; the caller re-checks when the timer fires.
 */
export function msUntilQuietEnds(ms: number, quiet: QuietHours, timeZone?: string): number {
  const { minute, second } = localTimeOfDay(ms, timeZone);
  const minutes = (toMinutes(quiet.end) - minute + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const wait = minutes * 60_000 - second * 1000 - (ms % 1000);
  return wait > 0 ? wait : MINUTES_PER_DAY * 60_000 + wait;
}
