import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isGatehouseHookCommandFor, isObject, type JsonObject } from '../install/hook-groups';
import type { HookInstaller, InstallTarget } from '../install/installer';
import { readJsonObject, writeJsonObject } from '../install/json-file';
import { CURSOR_EVENTS } from '../../../shared/node/hooks/cursor/adapter';

const isOurs = (command: unknown) => isGatehouseHookCommandFor('cursor', command);

/** `~/.cursor/hooks.json`, or the repository's `.cursor/hooks.json`. */
export function cursorHooksPath(t: InstallTarget): string {
  return t.project
    ? join(resolve(t.project), '.cursor', 'hooks.json')
    : join(t.home, '.cursor', 'hooks.json');
}

/**
 * Merges Gatehouse's entry into each gated event of a Cursor hooks file
 * (`{"version":1,"hooks":{"<event>":[{"command":…}]}}`), first in its list: Cursor has been
 * reported to run only the first command of an event. Returns the new file and whether
 * other hooks share an event with ours.
 */
export function mergeCursorHooks(
  file: JsonObject,
  command: string,
): { file: JsonObject; changed: boolean; shared: string[] } {
  const next = structuredClone(file);
  if (next.version !== undefined && next.version !== 1)
    throw new Error(
      `hooks.json has version ${JSON.stringify(next.version)}, not 1; not touching it`,
    );
  next.version = 1;
  if (next.hooks !== undefined && !isObject(next.hooks))
    throw new Error('"hooks" in hooks.json is not an object');
  const hooks = (next.hooks as JsonObject | undefined) ?? {};
  const shared: string[] = [];
  for (const event of CURSOR_EVENTS) {
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list))
      throw new Error(`"hooks.${event}" in hooks.json is not an array`);
    const others = ((list ?? []) as unknown[]).filter((h) => !(isObject(h) && isOurs(h.command)));
    if (others.length) shared.push(event);
    hooks[event] = [{ command, failClosed: true }, ...others];
  }
  next.hooks = hooks;
  return { file: next, changed: JSON.stringify(next) !== JSON.stringify(file), shared };
}

/** Removes exactly Gatehouse's entries, and the events (and `hooks`) that only held them. */
export function removeCursorHooks(file: JsonObject): { file: JsonObject; removed: number } {
  const next = structuredClone(file);
  if (!isObject(next.hooks)) return { file: next, removed: 0 };
  let removed = 0;
  for (const [event, list] of Object.entries(next.hooks)) {
    if (!Array.isArray(list)) continue;
    const kept = list.filter((h) => !(isObject(h) && isOurs(h.command)));
    removed += list.length - kept.length;
    if (kept.length) next.hooks[event] = kept;
    else if (list.length) delete next.hooks[event];
  }
  if (removed && Object.keys(next.hooks).length === 0) delete next.hooks;
  return { file: next, removed };
}

/** Cursor: hooks.json of the user or of a project. */
export const cursorInstaller: HookInstaller = {
  agent: 'cursor',
  label: 'Cursor',
  project: 'optional',
  defaultTimeoutSec: 60,
  canAsk: true,
  canStop: false,
  install(r) {
    const path = cursorHooksPath(r);
    const existed = existsSync(path);
    const { file, changed, shared } = mergeCursorHooks(readJsonObject(path), r.command);
    if (changed) writeJsonObject(path, file);
    return {
      changed: changed
        ? `Installed Gatehouse hooks (${CURSOR_EVENTS.join(', ')}) in ${path}`
        : `Gatehouse hooks already installed in ${path}`,
      gated:
        'every shell command (beforeShellExecution), MCP tool call (beforeMCPExecution), file read (beforeReadFile) and other tool call (preToolUse)',
      restart:
        'Cursor reloads hooks.json when it changes; restart Cursor if the hooks do not show in its Hooks panel.',
      notes: [
        'Cursor runs the hook with failClosed: if the hook itself fails, Cursor blocks the call.',
        ...(shared.length && existed
          ? [
              `Gatehouse's hook comes first in ${shared.join(', ')}: Cursor has been reported to run only the first command of an event, so check the others still run.`,
            ]
          : []),
      ],
    };
  },
  uninstall(t) {
    const path = cursorHooksPath(t);
    if (!existsSync(path)) return `No hooks file at ${path}; nothing to remove`;
    const { file, removed } = removeCursorHooks(readJsonObject(path));
    if (!removed) return `No Gatehouse hooks in ${path}`;
    writeJsonObject(path, file);
    return `Removed ${removed} Gatehouse hook ${removed === 1 ? 'entry' : 'entries'} from ${path}`;
  },
};
