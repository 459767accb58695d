/**
 * The one way Gatehouse writes a time for a person, on every surface (CLI, dashboard, desktop
 * window, phone page): in the local time zone of the machine Gatehouse runs on — the
 * person's — 24-hour, "14:03:07" for today and "2026-11-21 09:15" for another day. Pure:
 * `Date`'s local getters follow the process's (or the browser's) zone.
 */
const pad = (n: number): string => String(n).padStart(2, '0');

export function formatLocalTime(isoTime: string, now = Date.now()): string {
  const t = new Date(isoTime);
  if (Number.isNaN(t.getTime())) return isoTime;
  // An invalid `now` (NaN) matches no day: the date is always written.
  const today = new Date(now);
  const clock = `${pad(t.getHours())}:${pad(t.getMinutes())}`;
  if (t.toDateString() === today.toDateString()) return `${clock}:${pad(t.getSeconds())}`;
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ${clock}`;
}

/** The same format with the date always ("2026-11-21 09:15"): for a document read later. */
export const formatLocalDateTime = (isoTime: string): string =>
  formatLocalTime(isoTime, Number.NaN);

/**
 * The local zone's name as the person knows it ("CET", "GMT+1"), for a page read away from
 * the machine (the phone page), where the reader's own zone may differ.
 */
export function localZoneName(at: number = Date.now()): string {
  const part = zoneNameFormat()
    .formatToParts(new Date(at))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'local time';
}

/** The process's `TZ` where there is one (Node): a formatter keeps the zone it was made in. */
const zoneSetting = (): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.TZ;

let zoneNames: { tz: string | undefined; format: Intl.DateTimeFormat } | undefined;

/**
 * One formatter of zone names, made again only when `TZ` changes. Making one per call cost
 * ~40 µs: a session report names the zone of each of its ~700 times (a third of its time).
 */
function zoneNameFormat(): Intl.DateTimeFormat {
  const tz = zoneSetting();
  if (!zoneNames || zoneNames.tz !== tz)
    zoneNames = { tz, format: new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }) };
  return zoneNames.format;
}
