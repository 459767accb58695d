import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  isGatehouseHookCommandFor,
  mergeHookGroups,
  removeHookGroups,
} from '../install/hook-groups';
import type { HookInstaller, InstallTarget } from '../install/installer';
import { readJsonObject, writeJsonObject } from '../install/json-file';
import { CODEX_GATE_EVENTS, CODEX_RECORDED_EVENTS } from '../../../shared/node/hooks/codex/adapter';
import { installCodexSandbox } from './sandbox-config';

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

/** The repository root above `dir` (the nearest folder with `.git`), else `dir` itself. */
function repositoryRoot(dir: string): string {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return resolve(dir);
  }
}

/**
 * What a repository's hooks need before Codex runs them (checked with Codex 0.169.0): the
 * project trusted in the user's config (`[projects."<root>"] trust_level = "trusted"`) for the
 * repository's root —
 * trusting a subfolder does not load the root's `.codex/` — and then the hooks themselves
 * trusted in `/hooks`. An untrusted project's `.codex/` is skipped, even with
 * --dangerously-bypass-hook-trust.
 */
export function codexProjectTrustNote(t: InstallTarget, project: string): string {
  const root = repositoryRoot(project);
  const config = t.env.CODEX_HOME
    ? join(resolve(t.env.CODEX_HOME), 'config.toml')
    : '~/.codex/config.toml';
  // A TOML basic string takes JSON's escapes (\", \\, \uXXXX).
  return `Codex loads a repository's .codex/ hooks only when the project is trusted, and skips them otherwise (even with --dangerously-bypass-hook-trust): accept Codex's "trust this folder" prompt in ${root}, or add these lines to ${config} (the repository's root: trusting a subfolder does not load the root's .codex/):\n      [projects.${JSON.stringify(root)}]\n      trust_level = "trusted"`;
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
    // The user's config holds the sandbox mode Codex runs commands in (a project install
    // leaves the user's config alone).
    const sandbox = r.sandbox === false || r.project ? undefined : installCodexSandbox(r);
    const hooks = changed
      ? `Installed the Gatehouse hooks (${gateEvent}, ${CODEX_RECORDED_EVENTS.join(', ')}) in ${path}`
      : `The Gatehouse hooks are already installed in ${path}`;
    return {
      changed: sandbox ? `${hooks}\n${sandbox}` : hooks,
      gated: r.permissionRequest
        ? 'every call Codex would ask you to approve (PermissionRequest: sandbox escalations)'
        : 'every shell command, apply_patch and MCP tool call (PreToolUse)',
      timeoutSec,
      restart:
        'Codex reads hooks at start: restart running sessions. Codex runs a new hook only once you trust it: open /hooks in Codex and trust it (until then `codex exec` skips it; automation that vets its hooks can pass --dangerously-bypass-hook-trust).',
      ...(r.project ? { notes: [codexProjectTrustNote(r, r.project)] } : {}),
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
