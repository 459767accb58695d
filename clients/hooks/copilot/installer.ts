import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isGatehouseHookCommandFor, isObject, type JsonObject } from '../install/hook-groups';
import type { HookInstaller, InstallTarget } from '../install/installer';
import { readJsonObject, writeJsonObject } from '../install/json-file';
import { COPILOT_END_EVENT, COPILOT_GATE_EVENTS } from '../../../shared/node/hooks/copilot/adapter';

const TIMEOUT_MARGIN_SEC = 5;
const RECORD_TIMEOUT_SEC = 10;
const isOurs = (entry: unknown) =>
  isObject(entry) && isGatehouseHookCommandFor('copilot', entry.bash);

/** The repository's `.github/hooks/gatehouse.json`: Copilot CLI loads every `*.json` there. */
export function copilotHooksPath(t: InstallTarget): string {
  return join(resolve(t.project ?? '.'), '.github', 'hooks', 'gatehouse.json');
}

/**
 * Puts Gatehouse's entry into `event` of a Copilot hooks file (`{"version":1,"hooks":
 * {"<event>":[{"type":"command","bash":…,"timeoutSec":…}]}}`) and takes it out of the other
 * gate event; everything else in the file stays.
 */
export function mergeCopilotHooks(
  file: JsonObject,
  event: string,
  command: string,
  timeoutSec: number,
): { file: JsonObject; changed: boolean } {
  const next = structuredClone(file);
  if (next.version !== undefined && next.version !== 1)
    throw new Error(
      `the hooks file has version ${JSON.stringify(next.version)}, not 1; not touching it`,
    );
  next.version = 1;
  if (next.hooks !== undefined && !isObject(next.hooks))
    throw new Error('"hooks" in the hooks file is not an object');
  const hooks = (next.hooks as JsonObject | undefined) ?? {};
  removeOurs(
    hooks,
    COPILOT_GATE_EVENTS.filter((e) => e !== event),
  );
  const list = hooks[event];
  if (list !== undefined && !Array.isArray(list))
    throw new Error(`"hooks.${event}" in the hooks file is not an array`);
  const others = ((list ?? []) as unknown[]).filter((h) => !isOurs(h));
  hooks[event] = [{ type: 'command', bash: command, timeoutSec }, ...others];
  // The run's end, recorded (it completes the Gatehouse session).
  const ends = hooks[COPILOT_END_EVENT];
  if (ends !== undefined && !Array.isArray(ends))
    throw new Error(`"hooks.${COPILOT_END_EVENT}" in the hooks file is not an array`);
  hooks[COPILOT_END_EVENT] = [
    ...((ends ?? []) as unknown[]).filter((h) => !isOurs(h)),
    { type: 'command', bash: command, timeoutSec: RECORD_TIMEOUT_SEC },
  ];
  next.hooks = hooks;
  return { file: next, changed: JSON.stringify(next) !== JSON.stringify(file) };
}

function removeOurs(hooks: JsonObject, events: readonly string[]): number {
  let removed = 0;
  for (const event of events) {
    const list = hooks[event];
    if (!Array.isArray(list)) continue;
    const kept = list.filter((h) => !isOurs(h));
    removed += list.length - kept.length;
    if (kept.length) hooks[event] = kept;
    else if (list.length) delete hooks[event];
  }
  return removed;
}

/**
 * GitHub Copilot CLI: a hooks file of the repository, one gate event — preToolUse (every
 * call) or, with --permission-request, permissionRequest (only what Copilot would prompt
 * for). Copilot CLI lets a call run when its hook times out (1.0.102), so the timeout is
 * written above the wait and the command pins the wait it was written for.
 */
export const copilotInstaller: HookInstaller = {
  agent: 'copilot',
  label: 'Copilot CLI',
  project: 'required',
  defaultTimeoutSec: 30,
  canAsk: false,
  canStop: false,
  pinWait: true,
  install(r) {
    const path = copilotHooksPath(r);
    const event = r.permissionRequest ? 'permissionRequest' : 'preToolUse';
    const timeoutSec = Math.ceil(r.waitMs / 1000) + TIMEOUT_MARGIN_SEC;
    const { file, changed } = mergeCopilotHooks(readJsonObject(path), event, r.command, timeoutSec);
    if (changed) writeJsonObject(path, file);
    return {
      changed: changed
        ? `Installed the Gatehouse hooks (${event}, ${COPILOT_END_EVENT}) in ${path}`
        : `The Gatehouse hook is already installed in ${path}`,
      gated: r.permissionRequest
        ? 'every call Copilot CLI would ask you to approve (permissionRequest)'
        : 'every tool call: shell commands, file views, creates and edits, web fetches, MCP tools (preToolUse)',
      timeoutSec,
      restart:
        'Copilot CLI reads the hooks of a repository at start, once the folder is trusted: restart running sessions (in `copilot -p`, pass --trust-folder or trust the folder first).',
      notes: [
        `Copilot CLI's own hook timeout is 30 s and it lets a call run when a hook times out: the wait for a person stays within the ${timeoutSec} s written here (GATEHOUSE_HOOK_WAIT_MS before installing to change both). Commit .github/hooks/gatehouse.json to guard every clone, or keep it out of git for yourself only.`,
      ],
    };
  },
  uninstall(t) {
    const path = copilotHooksPath(t);
    if (!existsSync(path)) return `No hooks file at ${path}; nothing to remove`;
    const next = readJsonObject(path);
    const removed = isObject(next.hooks)
      ? removeOurs(next.hooks, [...COPILOT_GATE_EVENTS, COPILOT_END_EVENT])
      : 0;
    if (!removed) return `No Gatehouse hooks in ${path}`;
    if (isObject(next.hooks) && Object.keys(next.hooks).length === 0) {
      // Gatehouse's own file, nothing else left in it.
      rmSync(path);
      return `Removed the Gatehouse hook and its file ${path}`;
    }
    writeJsonObject(path, next);
    return `Removed ${removed} Gatehouse hook ${removed === 1 ? 'entry' : 'entries'} from ${path}`;
  },
};
