/**
 * Merging Gatehouse's entries into a Claude Code settings object (`.claude/settings.json`)
 * and taking exactly them out again. Pure functions over parsed JSON: everything else in
 * the file is kept as it is, and installing twice changes nothing the second time.
 */

import {
  isGatehouseHookCommandFor,
  mergeHookGroups,
  removeHookGroups,
  type JsonObject,
} from '../install/hook-groups';

import { ALL_EVENTS, RECORD_TIMEOUT_SEC, RECORDED_EVENTS, type GateEvent } from './hook-events';

export type { JsonObject } from '../install/hook-groups';

export interface InstallOptions {
  /** The shell command Claude Code runs, e.g. `"/usr/bin/node" "/opt/gatehouse/dist/cli/gatehouse.js" hook claude-code`. */
  command: string;
  /** The hook's timeout in seconds; above the hook's own wait for a human. */
  timeoutSec: number;
  /** The event that gates tool calls: every call (PreToolUse) or only those Claude Code would prompt for. */
  gateEvent: GateEvent;
}

/** True for a hook command that runs `gatehouse … hook claude-code`, however it was spelled. */
export const isGatehouseHookCommand = (command: unknown): boolean =>
  isGatehouseHookCommandFor('claude-code', command);

/** Adds (or updates in place) Gatehouse's hook entries. Returns a new object; the input is not changed. */
export function installHooks(
  settings: JsonObject,
  o: InstallOptions,
): { settings: JsonObject; changed: boolean } {
  // Only one gate event at a time: gating in both would ask the human twice.
  const otherGate = o.gateEvent === 'PreToolUse' ? 'PermissionRequest' : 'PreToolUse';
  return mergeHookGroups(
    settings,
    [
      { event: o.gateEvent, matcher: '*', timeoutSec: o.timeoutSec },
      ...RECORDED_EVENTS.map((event) => ({ event, timeoutSec: RECORD_TIMEOUT_SEC })),
    ],
    o.command,
    isGatehouseHookCommand,
    [otherGate],
  );
}

/** Removes every Gatehouse hook entry, and the groups and events that only held them. */
export function uninstallHooks(settings: JsonObject): { settings: JsonObject; removed: number } {
  return removeHookGroups(settings, ALL_EVENTS, isGatehouseHookCommand);
}
