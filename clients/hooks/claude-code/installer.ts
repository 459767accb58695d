import type { HookInstaller } from '../install/installer';
import { installHttpIntoSettings, uninstallHttpFromSettings } from './http-install';
import { installIntoSettings, uninstallFromSettings } from './install';

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
    if (r.http) {
      const http = await installHttpIntoSettings(target, {
        env: r.env,
        timeoutSec,
        gateEvent: r.permissionRequest ? 'PermissionRequest' : 'PreToolUse',
      });
      return {
        changed: http.changed,
        gated: `${gated}, posted to Gatehouse at ${http.url} (no process per call)`,
        timeoutSec,
        restart,
        whenDown:
          'With Gatehouse down (or not serving the http hook, or answering with an error), EVERY tool call is blocked, reads included: the hook is written with onFailure "block", so Claude Code counts a failed request as a block. Start Gatehouse to go on, or go back to the command hook (gatehouse hook claude-code --install), which lets reads inside the project through while Gatehouse is down.',
        notes: [
          ...http.notes,
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
    return { changed, gated, timeoutSec, restart };
  },
  uninstall(t) {
    const target = t.project ? { project: t.project } : { home: t.home };
    const http = uninstallHttpFromSettings(target);
    const command = uninstallFromSettings(target);
    return http ? `${http}\n${command}` : command;
  },
};
