import type { HookInstaller } from '../install/installer';
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
  install(r) {
    const timeoutSec = Math.max(MIN_TIMEOUT_SEC, Math.ceil(r.waitMs / 1000) + TIMEOUT_MARGIN_SEC);
    const target = r.project ? { project: r.project } : { home: r.home };
    const changed = installIntoSettings(target, {
      command: r.command,
      timeoutSec,
      gateEvent: r.permissionRequest ? 'PermissionRequest' : 'PreToolUse',
    });
    return {
      changed,
      gated: r.permissionRequest
        ? 'every tool call Claude Code would ask you about (PermissionRequest)'
        : 'every tool call (PreToolUse): shell commands, file reads and edits, web fetches, MCP tools',
      timeoutSec,
      restart:
        'Claude Code reads hooks at start: restart running sessions (or review them in /hooks).',
    };
  },
  uninstall(t) {
    return uninstallFromSettings(t.project ? { project: t.project } : { home: t.home });
  },
};
