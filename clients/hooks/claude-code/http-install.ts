import { chmodSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureHookHttpConfig, hookHttpConfigPath } from '../../../shared/node/hook-http-config';
import { resolveHome } from '../../../shared/node/socket-path';
import { readJsonObject, writeJsonObject } from '../install/json-file';
import { uninstallHooks } from './claude-settings';
import { hookUrl, installHttpHooks, removeHttpHooks, withSecret } from './http-settings';
import { settingsPath, type SettingsTarget } from './install';

export interface HttpInstallOptions {
  /** Gatehouse's environment: GATEHOUSE_HOME holds hook-http.json (port and secret). */
  env: NodeJS.ProcessEnv;
  timeoutSec: number;
  gateEvent: 'PreToolUse' | 'PermissionRequest';
}

/**
 * Where the secret goes: the user's settings for a user install; for a project, its
 * `.claude/settings.local.json` (Claude Code's file for what is not committed), never the
 * shared settings.json.
 */
const secretPath = (t: SettingsTarget): string =>
  t.project ? join(dirname(settingsPath(t)), 'settings.local.json') : settingsPath(t);

/** Writes a settings file that holds the secret readable by the user only. */
function writePrivate(path: string, settings: Record<string, unknown>): void {
  writeJsonObject(path, settings);
  chmodSync(path, 0o600);
}

/**
 * `gatehouse hook claude-code --install --http`: Claude Code's hooks as `"type": "http"`
 * entries that POST to the daemon on 127.0.0.1 with the install's secret, instead of a
 * process per call. Replaces Gatehouse's command entries. Returns the lines to print.
 */
export async function installHttpIntoSettings(
  t: SettingsTarget,
  o: HttpInstallOptions,
): Promise<{ changed: string; url: string; notes: string[] }> {
  const home = resolveHome(o.env);
  const config = await ensureHookHttpConfig(home);
  const path = settingsPath(t);
  const withoutCommand = uninstallHooks(readJsonObject(path)).settings;
  let settings = installHttpHooks(withoutCommand, {
    port: config.port,
    timeoutSec: o.timeoutSec,
    gateEvent: o.gateEvent,
  });
  const secretFile = secretPath(t);
  if (secretFile === path) settings = withSecret(settings, config.secret);
  else writePrivate(secretFile, withSecret(readJsonObject(secretFile), config.secret));
  writePrivate(path, settings);
  const url = hookUrl(config.port);
  return {
    changed: `Installed Gatehouse http hooks (${o.gateEvent}, Notification, Stop, SessionEnd → ${url}) in ${path}`,
    url,
    notes: [
      `The secret Claude Code sends is ${secretFile === path ? 'in that file' : `in ${secretFile}`} (env ${'GATEHOUSE_HOOK_SECRET'}, file mode 0600) and in ${hookHttpConfigPath(home)}; the daemon serves the hook from its next start: restart Gatehouse if it is running.`,
    ],
  };
}

/** Removes Gatehouse's http entries and the secret. Returns a line, or undefined when there were none. */
export function uninstallHttpFromSettings(t: SettingsTarget): string | undefined {
  const path = settingsPath(t);
  if (!existsSync(path)) return undefined;
  const { settings, removed } = removeHttpHooks(readJsonObject(path));
  const secretFile = secretPath(t);
  if (secretFile === path) {
    if (!removed) return undefined;
    writeJsonObject(path, withSecret(settings, undefined));
  } else {
    if (removed) writeJsonObject(path, settings);
    if (existsSync(secretFile))
      writeJsonObject(secretFile, withSecret(readJsonObject(secretFile), undefined));
    if (!removed) return undefined;
  }
  return `Removed ${removed} Gatehouse http hook ${removed === 1 ? 'entry' : 'entries'} from ${path}`;
}
