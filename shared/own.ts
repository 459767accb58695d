/**
 * Lookups by names that come from agents (actions, models, phases, tools, agents): only a
 * record's own properties count, so `constructor`, `__proto__` or `toString` find nothing
 * instead of Object.prototype's members ("Inputs are data, never code paths").
 */
export function own<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets an own property even for a key like `__proto__` (plain assignment would set the prototype). */
export function setOwn<V>(record: Record<string, V>, key: string, value: V): V {
  Object.defineProperty(record, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
  return value;
}

/** `record[key] ??= make()` for own properties only. */
export function ownOrSet<V>(record: Record<string, V>, key: string, make: () => V): V {
  return Object.hasOwn(record, key) ? record[key]! : setOwn(record, key, make());
}
