import type { HookInstaller } from '../install/installer';
import { installHttpIntoSettings, uninstallHttpFromSettings } from './http-install';
import {
  installIntoSettings,
  installSandboxIntoSettings,
  uninstallFromSettings,
  uninstallSandboxFromSettings,
} from './install';
import { gatehouseFiles } from './sandbox-settings';

/** Claude Code's default hook timeout; ours stays at least this and above the wait. */
const MIN_TIMEOUT_SEC = 60;
const TIMEOUT_MARGIN_SEC = 10;

/** Claude Code: `.claude/settings.json` of the user or of a project. */
export const claudeCodeInstaller: HookInstaller = {
  agent: 'claude-code',
  label: 'Claude Code',
  project: 'optional',
  defaultTimeoutSec: 60,
  canAsk: true,
  canStop: true,
  async install(r) {
    const timeoutSec = Math.max(MIN_TIMEOUT_SEC, Math.ceil(r.waitMs / 1000) + TIMEOUT_MARGIN_SEC);
    const target = r.project ? { project: r.project } : { home: r.home };
    const gated = r.permissionRequest
      ? 'every tool call Claude Code would ask you about (PermissionRequest)'
      : 'every tool call (PreToolUse): shell commands, file reads and edits, web fetches, MCP tools';
    const restart =
      'Claude Code reads hooks at start: restart running sessions (or review them in /hooks).';
    const sandbox = r.sandbox === false ? undefined : sandboxNotes(target, r);
    if (r.http) {
      const http = await installHttpIntoSettings(target, {
        env: r.env,
        timeoutSec,
        gateEvent: r.permissionRequest ? 'PermissionRequest' : 'PreToolUse',
      });
      return {
        changed: sandbox ? `${http.changed}\n${sandbox.line}` : http.changed,
        gated: `${gated}, posted to Gatehouse at ${http.url} (no process per call)`,
        timeoutSec,
        restart,
        whenDown:
          'With Gatehouse down (or not serving the http hook, or answering with an error), EVERY tool call is blocked, reads included: the hook is written with onFailure "block", so Claude Code counts a failed request as a block. Start Gatehouse to go on, or go back to the command hook (gatehouse hook claude-code --install), which lets reads inside the project through while Gatehouse is down.',
        notes: [
          ...http.notes,
          ...(sandbox?.notes ?? []),
          'Anything that can listen on that port while Gatehouse is not running (any local user) could answer these hooks; on a shared machine prefer the command hook, which talks to Gatehouse over its 0700 socket.',
        ],
      };
    }
    uninstallHttpFromSettings(target);
    const changed = installIntoSettings(target, {
      command: r.command,
      timeoutSec,
      gateEvent: r.permissionRequest ? 'PermissionRequest' : 'PreToolUse',
    });
    return {
      changed: sandbox ? `${changed}\n${sandbox.line}` : changed,
      gated,
      timeoutSec,
      restart,
      ...(sandbox ? { notes: sandbox.notes } : {}),
    };
  },
  uninstall(t) {
    const target = t.project ? { project: t.project } : { home: t.home };
    const http = uninstallHttpFromSettings(target);
    const command = uninstallFromSettings(target);
    const sandbox = uninstallSandboxFromSettings(target, gatehouseFiles(t.env, t.programDir));
    return [http, command, sandbox].filter(Boolean).join('\n');
  },
};

/** Writes the sandbox settings and says what they do, and what they cannot do here. */
function sandboxNotes(
  target: { project?: string; home?: string },
  r: { env: NodeJS.ProcessEnv; programDir?: string },
): { line: string; notes: string[] } {
  const done = installSandboxIntoSettings(target, gatehouseFiles(r.env, r.programDir));
  const notes = done.sandboxOff
    ? [
        "Your settings turn Claude Code's sandbox off (sandbox.enabled: false): the deny rules for Gatehouse's files apply to Claude Code's own tools only. Set it to true for commands too.",
      ]
    : [
        "Claude Code's sandbox now runs its shell commands with Gatehouse's files unreadable and unwritable and only the network domains you allow; it needs bubblewrap and socat on Linux (Seatbelt on macOS). Where it cannot run, Claude Code runs commands without it (sandbox.failIfUnavailable: true refuses instead) and Gatehouse's hook still decides each call. --no-sandbox leaves the sandbox settings alone.",
      ];
  return { line: done.line, notes };
}
