import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { HookInstaller, InstallTarget } from '../install/installer';
import { pluginLoadProblem } from './plugin-load';
import { opencodePluginSource, PLUGIN_MARKER } from './plugin-source';

/** The project's `.opencode/plugin/gatehouse.js`, or the user's in OpenCode's config folder. */
export function opencodePluginPath(t: InstallTarget): string {
  if (t.project) return join(resolve(t.project), '.opencode', 'plugin', 'gatehouse.js');
  const config = t.env.XDG_CONFIG_HOME ? resolve(t.env.XDG_CONFIG_HOME) : join(t.home, '.config');
  return join(config, 'opencode', 'plugin', 'gatehouse.js');
}

export const isOurs = (path: string): boolean =>
  existsSync(path) && readFileSync(path, 'utf8').startsWith(PLUGIN_MARKER);

/**
 * OpenCode: a plugin file of Gatehouse's own (OpenCode loads every file in its plugin
 * folders). A file of that name that is not Gatehouse's is never overwritten or removed.
 */
export const opencodeInstaller: HookInstaller = {
  agent: 'opencode',
  label: 'OpenCode',
  project: 'optional',
  defaultTimeoutSec: 0,
  canAsk: false,
  canStop: true,
  pinWait: true,
  async install(r) {
    const path = opencodePluginPath(r);
    if (existsSync(path) && !isOurs(path))
      throw new Error(`${path} exists and is not Gatehouse's plugin; not touching it`);
    const source = opencodePluginSource(r.command, r.waitMs);
    const changed = !existsSync(path) || readFileSync(path, 'utf8') !== source;
    if (changed) {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.gatehouse-${process.pid}.tmp`;
      writeFileSync(tmp, source);
      renameSync(tmp, path);
    }
    // OpenCode skips a plugin that does not load, silently, and every call then runs
    // unguarded: what is on disk now must load, or the install is not done.
    const problem = await pluginLoadProblem(readFileSync(path, 'utf8'));
    if (problem)
      throw new Error(
        `the plugin written to ${path} does not load (${problem}): OpenCode would skip it and run every call unguarded`,
      );
    return {
      changed: changed
        ? `Installed the Gatehouse plugin (tool.execute.before) at ${path}`
        : `The Gatehouse plugin is already installed at ${path}`,
      gated: 'every tool call: bash commands, file reads, writes and edits, web fetches, MCP tools',
      restart:
        'OpenCode loads plugins at start: restart running OpenCode sessions and `opencode serve`.',
      notes: [
        'Checked that the plugin loads as OpenCode loads it (OpenCode skips one that does not, without a word); `gatehouse hook opencode --check` checks again any time, e.g. after upgrading OpenCode or Gatehouse.',
        'OpenCode waits for a plugin as long as it takes: the plugin itself gives up (and denies) 15 s after the wait for a person.',
        'A denied call reaches the model as the tool\'s error. Keep OpenCode\'s own permissions at "allow" for what Gatehouse guards, or you are asked twice; for `opencode serve` whose permissions still ask, `gatehouse opencode-bridge --url URL` answers those asks from Gatehouse.',
      ],
    };
  },
  uninstall(t) {
    const path = opencodePluginPath(t);
    if (!existsSync(path)) return `No Gatehouse plugin at ${path}; nothing to remove`;
    if (!isOurs(path)) return `${path} is not Gatehouse's plugin; not touching it`;
    rmSync(path);
    return `Removed the Gatehouse plugin ${path}`;
  },
};
