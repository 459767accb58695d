import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { readHookConfig } from '../../../shared/node/hooks/relay/hook-config';
import { defaultWaitMs } from '../../../shared/node/hooks/relay/wait-defaults';
import { defaultHookCommand } from '../install/hook-command';
import { opencodePluginPath } from './installer';
import { pluginLoadProblem, pluginSyntaxProblem } from './plugin-load';
import { opencodePluginSource, PLUGIN_MARKER } from './plugin-source';

export interface OpencodeCheckFlags {
  /** The project whose `.opencode/plugin/` is checked (default: the working directory). */
  project?: string;
  /** The command the plugin was installed with (`--install --command`), when not the default. */
  command?: string;
}

/** One plugin location: not installed, or installed with the problem found (none: current, loads). */
type Verdict =
  { path: string; installed: false } | { path: string; installed: true; problem?: string };

/** What `gatehouse hook opencode --install` writes now, with the same flags and environment. */
function expectedSource(o: OpencodeCheckFlags, env: NodeJS.ProcessEnv): string {
  const config = readHookConfig(env, {
    agent: 'opencode',
    label: 'OpenCode',
    waitMs: defaultWaitMs('opencode'),
  });
  const command =
    o.command ??
    defaultHookCommand('opencode', env, { GATEHOUSE_HOOK_WAIT_MS: String(config.waitMs) });
  return opencodePluginSource(command, config.waitMs);
}

/** The first line where the two differ, 1-based. */
function firstDifferentLine(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i + 1;
}

/**
 * A file that is not exactly what install writes may have been altered by an agent: it is only
 * parsed, never imported (importing runs its code). Gatehouse's own is imported as OpenCode does.
 */
async function verdictOf(path: string, expected: string): Promise<Verdict> {
  if (!existsSync(path)) return { path, installed: false };
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { path, installed: true, problem: `cannot be read (${why})` };
  }
  if (!source.startsWith(PLUGIN_MARKER))
    return {
      path,
      installed: true,
      problem: "is not Gatehouse's plugin (not written by --install)",
    };
  const syntax = await pluginSyntaxProblem(source);
  if (syntax) return { path, installed: true, problem: `does not load: ${syntax}` };
  if (source !== expected) {
    const line = firstDifferentLine(source, expected);
    return {
      path,
      installed: true,
      problem: `is not Gatehouse's current plugin: line ${line} differs from what --install writes`,
    };
  }
  const load = await pluginLoadProblem(source);
  return load
    ? { path, installed: true, problem: `does not load: ${load}` }
    : { path, installed: true };
}

/**
 * `gatehouse hook opencode --check [--project DIR]`: OpenCode skips a plugin that fails to
 * load without a word, and with its permissions at `allow` every call then runs unguarded. This
 * says, for the user's and the project's plugin location, whether Gatehouse's current plugin
 * is there and loads. Returns the exit code: 0 only when one is installed and none is wrong.
 */
export async function runOpencodeCheck(
  o: OpencodeCheckFlags,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<number> {
  const home = env.HOME || homedir();
  const paths = [
    ...new Set([
      opencodePluginPath({ home, env }),
      opencodePluginPath({ home, env, project: o.project ?? cwd }),
    ]),
  ];
  const expected = expectedSource(o, env);
  const verdicts = await Promise.all(paths.map((p) => verdictOf(p, expected)));
  let failed = false;
  for (const v of verdicts) {
    if (!v.installed) console.log(`${v.path}: no plugin`);
    else if (v.problem === undefined) console.log(`${v.path}: Gatehouse's current plugin, loads`);
    else {
      failed = true;
      console.log(`${v.path}: ${v.problem}`);
    }
  }
  const project = o.project ? ` --project ${o.project}` : '';
  if (failed) {
    console.error(
      `gatehouse: OpenCode skips a plugin that does not load, and runs every call unguarded. Reinstall with: gatehouse hook opencode --install${project}`,
    );
    return 1;
  }
  if (!verdicts.some((v) => v.installed)) {
    console.error(
      `gatehouse: no Gatehouse plugin for OpenCode here: its calls are not guarded. Install with: gatehouse hook opencode --install${project}`,
    );
    return 1;
  }
  return 0;
}
