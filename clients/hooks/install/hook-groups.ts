/**
 * Claude Code's hook-file shape, which Codex's hooks.json shares: `hooks.<Event>` is a list of
 * groups `{ matcher?, hooks: [{ type: "command", command, timeout }] }`. Pure functions over
 * parsed JSON: everything else in the file is kept as it is, and installing twice changes
 * nothing the second time.
 */
export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * True for a hook command that runs `gatehouse … hook <agent>` (or the relay's own file,
 * `gatehouse-hook.cjs hook <agent>`), however it was spelled.
 */
export function isGatehouseHookCommandFor(agent: string, command: unknown): boolean {
  return (
    typeof command === 'string' &&
    new RegExp(`gatehouse(-hook\\.cjs|\\.js|\\.mjs|\\.cmd)?["']?\\s+hook\\s+${agent}(\\s|$)`).test(
      command,
    )
  );
}

export interface GroupEntry {
  event: string;
  /** The group's matcher; undefined for events without one. */
  matcher?: string;
  timeoutSec: number;
  /** Fields of the hook entry that differ from Claude Code's (Gemini CLI: `timeout` in ms, a `name`). */
  entry?: JsonObject;
}

/**
 * Adds (or updates in place) one Gatehouse entry per `entries`, and takes Gatehouse's
 * entries out of `dropEvents`. Returns a new object; the input is not changed.
 */
export function mergeHookGroups(
  settings: JsonObject,
  entries: GroupEntry[],
  command: string,
  isOurs: (command: unknown) => boolean,
  dropEvents: string[] = [],
): { settings: JsonObject; changed: boolean } {
  const next = structuredClone(settings);
  if (next.hooks !== undefined && !isObject(next.hooks))
    throw new Error('"hooks" in the settings file is not an object');
  const hooks: JsonObject = (next.hooks as JsonObject | undefined) ?? {};
  removeOurs(hooks, dropEvents, commandIs(isOurs));
  for (const { event, matcher, timeoutSec, entry: own } of entries) {
    const entry = { type: 'command', command, timeout: timeoutSec, ...own };
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list))
      throw new Error(`"hooks.${event}" in the settings file is not an array`);
    const groups = (list ?? []) as unknown[];
    const existing = groups
      .flatMap((g) => (isObject(g) && Array.isArray(g.hooks) ? (g.hooks as unknown[]) : []))
      .find((h): h is JsonObject => isObject(h) && isOurs(h.command));
    if (existing) Object.assign(existing, entry);
    else groups.push(matcher === undefined ? { hooks: [entry] } : { matcher, hooks: [entry] });
    hooks[event] = groups;
  }
  next.hooks = hooks;
  return { settings: next, changed: JSON.stringify(next) !== JSON.stringify(settings) };
}

/** Removes every Gatehouse entry of `events`, and the groups and events that only held them. */
export function removeHookGroups(
  settings: JsonObject,
  events: readonly string[],
  isOurs: (command: unknown) => boolean,
): { settings: JsonObject; removed: number } {
  return removeHookEntries(settings, events, commandIs(isOurs));
}

/**
 * Removes every entry of `events` that `isOursEntry` claims (a command hook by its command, an
 * http hook by its URL), and the groups and events that only held them. Returns a new object.
 */
export function removeHookEntries(
  settings: JsonObject,
  events: readonly string[],
  isOursEntry: (entry: unknown) => boolean,
): { settings: JsonObject; removed: number } {
  const next = structuredClone(settings);
  if (!isObject(next.hooks)) return { settings: next, removed: 0 };
  const removed = removeOurs(next.hooks, events, isOursEntry);
  if (removed && Object.keys(next.hooks).length === 0) delete next.hooks;
  return { settings: next, removed };
}

const commandIs =
  (isOurs: (command: unknown) => boolean) =>
  (entry: unknown): boolean =>
    isObject(entry) && isOurs(entry.command);

function removeOurs(
  hooks: JsonObject,
  events: readonly string[],
  isOursEntry: (entry: unknown) => boolean,
): number {
  let removed = 0;
  for (const event of events) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    const kept: unknown[] = [];
    for (const g of groups) {
      if (!isObject(g) || !Array.isArray(g.hooks)) {
        kept.push(g);
        continue;
      }
      const left = (g.hooks as unknown[]).filter((h) => !isOursEntry(h));
      removed += g.hooks.length - left.length;
      if (left.length === g.hooks.length) kept.push(g);
      else if (left.length) kept.push({ ...g, hooks: left });
    }
    if (kept.length) hooks[event] = kept;
    else if (groups.length) delete hooks[event];
  }
  return removed;
}
