import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  installHooks,
  uninstallHooks,
  type InstallOptions,
  type JsonObject,
} from './claude-settings';

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

/** The command written into the settings: this very CLI, by absolute paths, so PATH does not matter. */
export function defaultHookCommand(
  script = process.argv[1] ?? 'gatehouse',
  node = process.execPath,
): string {
  const q = (s: string) => (/^[\w./:\\-]+$/.test(s) ? s : JSON.stringify(s));
  // The hook runs before every tool call and makes no TLS connection, so it skips loading
  // extra CA certificates: with NODE_EXTRA_CA_CERTS set, Node parses the whole bundle at
  // start-up, which measured 50-80 ms of a ~100 ms hook here. (POSIX shells only.)
  const prefix = process.platform === 'win32' ? '' : 'NODE_EXTRA_CA_CERTS= ';
  return /\.m?js$/.test(script)
    ? `${prefix}${q(node)} ${q(resolve(script))} hook claude-code`
    : `${prefix}${q(script)} hook claude-code`;
}

function readSettings(path: string): JsonObject {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); not touching it`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${path} does not hold a JSON object; not touching it`);
  return parsed as JsonObject;
}

/** Writes through a temporary file and a rename, so Claude Code never reads half a file. */
function writeSettings(path: string, settings: JsonObject): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.gatehouse-${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(tmp, path);
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
