import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  readJsonObject as readSettings,
  writeJsonObject as writeSettings,
} from '../install/json-file';
import { installHooks, uninstallHooks, type InstallOptions } from './claude-settings';
import { installSandbox, uninstallSandbox, type GatehouseFiles } from './sandbox-settings';

export interface SettingsTarget {
  /** A project directory: writes DIR/.claude/settings.json; else the user's ~/.claude/settings.json. */
  project?: string;
  home?: string;
}

/** The settings file `--install` and `--uninstall` edit. */
export function settingsPath(t: SettingsTarget): string {
  return t.project
    ? join(resolve(t.project), '.claude', 'settings.json')
    : join(t.home ?? homedir(), '.claude', 'settings.json');
}

/** `--install`: merges the hook entries into the settings file. Returns a line for the user. */
export function installIntoSettings(t: SettingsTarget, o: InstallOptions): string {
  const path = settingsPath(t);
  const { settings, changed } = installHooks(readSettings(path), o);
  if (!changed) return `Gatehouse hooks already installed in ${path}`;
  writeSettings(path, settings);
  return `Installed Gatehouse hooks (${o.gateEvent}, Notification, Stop, SessionEnd) in ${path}`;
}

/** `--uninstall`: removes exactly Gatehouse's entries. Returns a line for the user. */
export function uninstallFromSettings(t: SettingsTarget): string {
  const path = settingsPath(t);
  if (!existsSync(path)) return `No settings file at ${path}; nothing to remove`;
  const { settings, removed } = uninstallHooks(readSettings(path));
  if (!removed) return `No Gatehouse hooks in ${path}`;
  writeSettings(path, settings);
  return `Removed ${removed} Gatehouse hook ${removed === 1 ? 'entry' : 'entries'} from ${path}`;
}

/** `--install` without `--no-sandbox`: Claude Code's sandbox keeps Gatehouse's files out of reach. */
export function installSandboxIntoSettings(
  t: SettingsTarget,
  files: GatehouseFiles,
): { line: string; sandboxOff: boolean } {
  const path = settingsPath(t);
  const { settings, changed, sandboxOff } = installSandbox(readSettings(path), files);
  if (changed) writeSettings(path, settings);
  return {
    line: changed
      ? `Turned on Claude Code's sandbox in ${path}, with Gatehouse's files (${files.noRead.join(', ')}) denied to its tools and commands`
      : `Claude Code's sandbox settings for Gatehouse already in ${path}`,
    sandboxOff,
  };
}

/** `--uninstall`: removes exactly the sandbox entries `--install` added. */
export function uninstallSandboxFromSettings(t: SettingsTarget, files: GatehouseFiles): string {
  const path = settingsPath(t);
  if (!existsSync(path)) return '';
  const { settings, removed } = uninstallSandbox(readSettings(path), files);
  if (!removed) return '';
  writeSettings(path, settings);
  return `Removed Gatehouse's ${removed} sandbox and permission ${removed === 1 ? 'entry' : 'entries'} from ${path}`;
}
