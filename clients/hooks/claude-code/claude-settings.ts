/**
 * Merging Gatehouse's entries into a Claude Code settings object (`.claude/settings.json`)
 * and taking exactly them out again. Pure functions over parsed JSON: everything else in
 * the file is kept as it is, and installing twice changes nothing the second time.
 */

export type JsonObject = Record<string, unknown>;

export interface InstallOptions {
  /** The shell command Claude Code runs, e.g. `"/usr/bin/node" "/opt/gatehouse/dist/cli/gatehouse.js" hook claude-code`. */
  command: string;
  /** The hook's timeout in seconds; above the hook's own wait for a human. */
  timeoutSec: number;
  /** The event that gates tool calls: every call (PreToolUse) or only those Claude Code would prompt for. */
  gateEvent: 'PreToolUse' | 'PermissionRequest';
}

/** Events that are only recorded: no matcher, a short timeout. */
const RECORDED_EVENTS = ['Notification', 'Stop', 'SessionEnd'] as const;
const RECORD_TIMEOUT_SEC = 10;
const ALL_EVENTS = ['PreToolUse', 'PermissionRequest', ...RECORDED_EVENTS];

/** True for a hook command that runs `gatehouse … hook claude-code`, however it was spelled. */
export function isGatehouseHookCommand(command: unknown): boolean {
  return (
    typeof command === 'string' &&
    /gatehouse(\.js|\.mjs|\.cmd)?["']?\s+hook\s+claude-code(\s|$)/.test(command)
  );
}

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

interface HookGroup extends JsonObject {
  matcher?: string;
  hooks: JsonObject[];
}

/** Adds (or updates in place) Gatehouse's hook entries. Returns a new object; the input is not changed. */
export function installHooks(
  settings: JsonObject,
  o: InstallOptions,
): { settings: JsonObject; changed: boolean } {
  const next = structuredClone(settings);
  if (next.hooks !== undefined && !isObject(next.hooks))
    throw new Error('"hooks" in the settings file is not an object');
  const hooks: JsonObject = (next.hooks as JsonObject | undefined) ?? {};
  // Only one gate event at a time: gating in both would ask the human twice.
  const otherGate = o.gateEvent === 'PreToolUse' ? 'PermissionRequest' : 'PreToolUse';
  removeOurs(hooks, [otherGate]);
  const wanted: [string, string | undefined, number][] = [
    [o.gateEvent, '*', o.timeoutSec],
    ...RECORDED_EVENTS.map((e): [string, undefined, number] => [e, undefined, RECORD_TIMEOUT_SEC]),
  ];
  for (const [event, matcher, timeout] of wanted) {
    const entry = { type: 'command', command: o.command, timeout };
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list))
      throw new Error(`"hooks.${event}" in the settings file is not an array`);
    const groups = (list ?? []) as unknown[];
    const existing = groups
      .flatMap((g) => (isObject(g) && Array.isArray(g.hooks) ? (g.hooks as unknown[]) : []))
      .find((h): h is JsonObject => isObject(h) && isGatehouseHookCommand(h.command));
    if (existing) Object.assign(existing, entry);
    else
      groups.push(
        matcher === undefined
          ? { hooks: [entry] }
          : ({ matcher, hooks: [entry] } satisfies HookGroup),
      );
    hooks[event] = groups;
  }
  next.hooks = hooks;
  return { settings: next, changed: JSON.stringify(next) !== JSON.stringify(settings) };
}

/** Removes every Gatehouse hook entry, and the groups and events that only held them. */
export function uninstallHooks(settings: JsonObject): { settings: JsonObject; removed: number } {
  const next = structuredClone(settings);
  if (!isObject(next.hooks)) return { settings: next, removed: 0 };
  const removed = removeOurs(next.hooks, ALL_EVENTS);
  if (removed && Object.keys(next.hooks).length === 0) delete next.hooks;
  return { settings: next, removed };
}

function removeOurs(hooks: JsonObject, events: string[]): number {
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
      const left = (g.hooks as unknown[]).filter(
        (h) => !(isObject(h) && isGatehouseHookCommand(h.command)),
      );
      removed += g.hooks.length - left.length;
      if (left.length === g.hooks.length) kept.push(g);
      else if (left.length) kept.push({ ...g, hooks: left });
    }
    if (kept.length) hooks[event] = kept;
    else if (groups.length) delete hooks[event];
  }
  return removed;
}
