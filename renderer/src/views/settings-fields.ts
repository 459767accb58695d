/** How one settings leaf is edited. Derived from its key and current value, not a schema,
 * so settings added later by other parts of Gatehouse show up without UI changes. */
export type FieldKind =
  'boolean' | 'number' | 'duration' | 'time' | 'urgency' | 'secret' | 'text' | 'json';

export interface Field {
  key: string;
  kind: FieldKind;
  value: unknown;
}

/** The DOM id (and test id) of a settings field: `setting-notifications-quietHours-start`. */
export const fieldId = (key: string): string => `setting-${key.replace(/\./g, '-')}`;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export function kindOf(key: string, value: unknown): FieldKind {
  const name = key.split('.').pop() ?? key;
  if (typeof value === 'boolean') return 'boolean';
  // A duration is named `...Ms`, or sits in a map named so (`phaseTimeoutsMs.planning`).
  const parent = key.split('.').slice(-2, -1)[0] ?? '';
  if (typeof value === 'number')
    return /Ms$/.test(name) || /Ms$/.test(parent) ? 'duration' : 'number';
  if (typeof value === 'string') {
    if (/urgency$/i.test(name)) return 'urgency';
    if (/^(password|secret|token)$/i.test(name)) return 'secret';
    if (/^([01]\d|2[0-3]):[0-5]\d$/.test(value) && /^(start|end)$|time$/i.test(name)) return 'time';
    return 'text';
  }
  return 'json';
}

/**
 * Splits a settings subtree into groups of leaves: one group per object that has primitive
 * leaves. Arrays and empty objects (maps that start empty, like per-agent caps) are edited
 * as JSON.
 */
export function groupsOf(
  tree: Record<string, unknown>,
  prefix: string,
): { key: string; fields: Field[] }[] {
  const fields: Field[] = [];
  const groups: { key: string; fields: Field[] }[] = [];
  for (const [name, value] of Object.entries(tree)) {
    const key = `${prefix}.${name}`;
    if (isPlainObject(value) && Object.keys(value).length > 0) groups.push(...groupsOf(value, key));
    else fields.push({ key, kind: kindOf(key, value), value });
  }
  return fields.length ? [{ key: prefix, fields }, ...groups] : groups;
}

/** The text an input shows for a value (durations in seconds). */
export function toInput(kind: FieldKind, value: unknown): string | boolean {
  switch (kind) {
    case 'boolean':
      return value === true;
    case 'duration':
      return String((value as number) / 1000);
    case 'json':
      return JSON.stringify(value, null, 2);
    default:
      return String(value ?? '');
  }
}

/** Parses what the user typed back into the setting's value, or throws with why not. */
export function fromInput(kind: FieldKind, input: string | boolean): unknown {
  switch (kind) {
    case 'boolean':
      return input === true;
    case 'number':
    case 'duration': {
      const text = String(input).trim();
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) throw new Error('expected a number');
      return kind === 'duration' ? Math.round(n * 1000) : n;
    }
    case 'json':
      try {
        return JSON.parse(String(input));
      } catch {
        throw new Error('expected JSON');
      }
    default:
      return String(input);
  }
}

/** The label of a settings leaf: its name in words, with the unit it is edited in. */
export function fieldLabel(field: Field, humanize: (key: string) => string): string {
  const name = field.key.split('.').pop() ?? field.key;
  const unit = /Usd$/.test(name)
    ? ' ($)'
    : /Pct$/.test(name)
      ? ' (%)'
      : field.kind === 'duration'
        ? ' (seconds)'
        : '';
  return humanize(name.replace(/(Ms|Usd|Pct)$/, '')) + unit;
}
