import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  isGatehouseHookCommandFor,
  mergeHookGroups,
  removeHookGroups,
} from '../install/hook-groups';
import type { HookInstaller, InstallTarget } from '../install/installer';
import { readJsonObject, writeJsonObject } from '../install/json-file';
import { CODEX_GATE_EVENTS, CODEX_RECORDED_EVENTS } from './adapter';

const TIMEOUT_MARGIN_SEC = 10;
/** Recording a turn's end; Codex holds SessionEnd hooks to 1–3 s anyway. */
const RECORD_TIMEOUT_SEC: Record<(typeof CODEX_RECORDED_EVENTS)[number], number> = {
  Stop: 10,
  SessionEnd: 3,
};
const isOurs = (command: unknown) => isGatehouseHookCommandFor('codex', command);

/** `$CODEX_HOME/hooks.json` (default `~/.codex`), or the repository's `.codex/hooks.json`. */
export function codexHooksPath(t: InstallTarget): string {
  if (t.project) return join(resolve(t.project), '.codex', 'hooks.json');
  const codexHome = t.env.CODEX_HOME ? resolve(t.env.CODEX_HOME) : join(t.home, '.codex');
  return join(codexHome, 'hooks.json');
}

/**
 * Codex CLI: hooks.json in the Claude Code shape (`hooks.<Event>[{matcher, hooks:[{type,
 * command, timeout}]}]`), one gate event — PreToolUse (every shell command, patch and MCP
 * call) or, with --permission-request, PermissionRequest (only what Codex would prompt for).
 */
export const codexInstaller: HookInstaller = {
  agent: 'codex',
  label: 'Codex',
  project: 'optional',
  defaultTimeoutSec: 600,
  canAsk: false,
  canStop: false,
  pinWait: true,
  install(r) {
    const path = codexHooksPath(r);
    const gateEvent = r.permissionRequest ? 'PermissionRequest' : 'PreToolUse';
    const timeoutSec = Math.ceil(r.waitMs / 1000) + TIMEOUT_MARGIN_SEC;
    const { settings, changed } = mergeHookGroups(
      readJsonObject(path),
      [
        { event: gateEvent, matcher: '*', timeoutSec },
        ...CODEX_RECORDED_EVENTS.map((event) => ({ event, timeoutSec: RECORD_TIMEOUT_SEC[event] })),
      ],
      r.command,
      isOurs,
      CODEX_GATE_EVENTS.filter((e) => e !== gateEvent),
    );
    if (changed) writeJsonObject(path, settings);
    return {
      changed: changed
        ? `Installed the Gatehouse hooks (${gateEvent}, ${CODEX_RECORDED_EVENTS.join(', ')}) in ${path}`
        : `The Gatehouse hooks are already installed in ${path}`,
      gated: r.permissionRequest
        ? 'every call Codex would ask you to approve (PermissionRequest: sandbox escalations)'
        : 'every shell command, apply_patch and MCP tool call (PreToolUse)',
      timeoutSec,
      restart:
        'Codex reads hooks at start: restart running sessions. Codex runs a new hook only once you trust it: open /hooks in Codex and trust it (until then `codex exec` skips it; automation that vets its hooks can pass --dangerously-bypass-hook-trust).',
      ...(r.project
        ? { notes: ["Codex loads a repository's .codex/ hooks only when the project is trusted."] }
        : {}),
    };
  },
  uninstall(t) {
    const path = codexHooksPath(t);
    if (!existsSync(path)) return `No hooks file at ${path}; nothing to remove`;
    const { settings, removed } = removeHookGroups(
      readJsonObject(path),
      [...CODEX_GATE_EVENTS, ...CODEX_RECORDED_EVENTS],
      isOurs,
    );
    if (!removed) return `No Gatehouse hooks in ${path}`;
    writeJsonObject(path, settings);
    return `Removed ${removed} Gatehouse hook ${removed === 1 ? 'entry' : 'entries'} from ${path}`;
  },
};
