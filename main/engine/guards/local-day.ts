/**
 * Calendar days in the machine's local time zone: daily budgets reset at local midnight,
 * which is what a person means by "per day".
 */

/** `YYYY-MM-DD` of the local day that contains `ms`. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const dd = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${mm}-${dd}`;
}

/** Epoch ms of the next local midnight after `ms` (DST-safe: built from calendar fields). */
export function nextLocalMidnight(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
}
