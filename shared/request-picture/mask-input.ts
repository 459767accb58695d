import { maskSecrets } from './mask-secrets';

/**
 * A tool input with every string in it masked as a picture's diff is (mask-secrets.ts): what
 * a request keeps for the person to read and edit. Keys stay as they are, so each field is
 * still where it was; the daemon alone keeps the unmasked input, while the agent waits.
 */
export function maskInput(input: Record<string, unknown>): Record<string, unknown> {
  return maskStrings(input);
}

/**
 * `value` with every string in it, however deep, masked (mask-secrets.ts); keys, numbers and
 * the shape stay as they are.
 */
export function maskStrings<T>(value: T): T {
  return maskValue(value) as T;
}

function maskValue(v: unknown): unknown {
  if (typeof v === 'string') return maskSecrets(v);
  if (Array.isArray(v)) return v.map(maskValue);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskValue(x)]));
  return v;
}
