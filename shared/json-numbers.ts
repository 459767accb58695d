/**
 * Significant digits a reply keeps of a fraction. Binary floating point leaves noise in the
 * 16th and 17th digit of sums (`0.1 + 0.2` is 0.30000000000000004, a day's spend
 * 0.7889999999999999, a percentage 20.000000000000004); no amount Gatehouse shows means
 * anything there. Twelve digits keep every real figure whole (a micro-dollar of a million
 * dollars) and drop the noise.
 */
const SIGNIFICANT_DIGITS = 12;

/** A number without float noise: fractions to twelve significant digits, integers as they are. */
export const withoutFloatNoise = (n: number): number =>
  Number.isInteger(n) || !Number.isFinite(n) ? n : Number(n.toPrecision(SIGNIFICANT_DIGITS));

/**
 * Text that may hold a number with float noise. A fraction rounds differently only when its
 * shortest form has more than twelve significant digits, and JSON writes such a number with
 * at least thirteen digits and a dot in one run (`0.30000000000000004`, `1.2345678901234e-7`).
 * Text without such a run is written the same with or without rounding; text with one (a long
 * integer, digits in a string) is merely rounded the slow way.
 */
const MAY_CARRY_NOISE = /[\d.]{14}/;

/**
 * `JSON.stringify` for what leaves Gatehouse (socket replies and notifications, the
 * dashboard's API and events): every fraction without float noise, rounded once at the
 * boundary rather than in each sum that produced it.
 */
export function replyJson(value: unknown): string {
  // Most replies hold no fraction long enough to carry noise: they are written without a
  // replacer, which costs JSON.stringify its fast path (about 2 µs of each socket reply).
  const plain = JSON.stringify(value);
  if (plain === undefined || !MAY_CARRY_NOISE.test(plain)) return plain;
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'number' ? withoutFloatNoise(v) : v,
  );
}

/**
 * A copy of a JSON-shaped value with every fraction without float noise: the same boundary
 * as {@link replyJson}, for channels that pass objects, not text (Electron's IPC).
 */
export function withoutFloatNoiseDeep<T>(value: T): T {
  if (typeof value === 'number') return withoutFloatNoise(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withoutFloatNoiseDeep(v)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, withoutFloatNoiseDeep(v)]),
    ) as T;
  return value;
}
