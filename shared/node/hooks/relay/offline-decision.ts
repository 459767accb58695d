import { shownSecretVariable, type SecretVariable } from '../../../tools/secret-variables';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DEFAULT_ACTIONS } from '../../../policy/default-actions';
import { configHomesIn } from '../../../policy/config-homes';
import { protectedLocation, specialDevice } from '../../../policy/protected-locations';
import { createPathResolver } from '../../path-resolver';
import { resolveHome, resolveSocketPath } from '../../socket-path';
import type { ActionSpec } from '../../../tools/action-spec';
import { scanCommandPaths, type PathResolver } from '../../../tools/shell-paths';
import type { ShellParser } from '../../../tools/shell-syntax';
import { START_GATEHOUSE, type HookDecision } from './types';

export { START_GATEHOUSE } from './types';

/** Where the call happens and what must never be touched without Gatehouse. */
export interface OfflineContext {
  /** Claude Code's working directory: the project. Without it no path counts as inside. */
  cwd?: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Gatehouse's secret variables the agent's commands may hold (HookConfig.secretVariables). */
  secretVariables: readonly SecretVariable[];
  /** The shell parser: a command's `cd`s and expansions are followed as the daemon does. */
  shell?: ShellParser;
}

/** Commands longer than this are not parsed offline: they are denied (the daemon asks). */
export const MAX_OFFLINE_COMMAND = 64 * 1024;

/** The tool call as the table sees it. */
export interface OfflineCall {
  candidates: ActionSpec[];
  /** Set for shell commands: their paths came out of a command line, not a tool field. */
  command?: string;
  /** The directory the command runs in when the call names its own (run-directory.ts). */
  workdir?: string;
}

/** Directory names and file names of common secrets: never read without Gatehouse. */
const SECRET_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.kube', '.docker', 'gcloud', '.gatehouse']);
const SECRET_FILE = /^(\.env(\..*)?|\.netrc|id_[a-z0-9]+|.*\.(pem|key|p12|pfx))$/i;
/** Characters whose meaning the shell decides: the path is not known until it runs. */
const SHELL_SPECIAL = /[$`*?[\]{}\\]/;
/** Git queries that only read: allowed offline like reads. */
const NO_PATH_ACTIONS = new Set([
  'git_status',
  'git_log',
  'git_diff',
  'read_git_history',
  'run_tests',
]);

/**
 * The answer when Gatehouse cannot be asked: the built-in table, failing closed. An action
 * the table asks about (or does not know) is denied with how to start Gatehouse; an action it
 * allows is allowed only when every path it names lies inside the project and is neither a
 * common secret nor Gatehouse's own data — Gatehouse's protected-path rules are not here to
 * catch them, so anything else waits for Gatehouse.
 */
export function offlineDecision(call: OfflineCall, ctx: OfflineContext, why: string): HookDecision {
  const shell = call.command !== undefined;
  let where: Where | undefined;
  if (ctx.cwd && isAbsolute(ctx.cwd)) {
    const project = real(resolve(ctx.cwd));
    const resolver = createPathResolver({
      home: homedir(),
      gatehouseHome: resolve(resolveHome(ctx.env)),
    });
    // The command's relative paths are its working directory's, not the project's.
    const runsIn = call.workdir === undefined ? project : real(resolve(ctx.cwd, call.workdir));
    where = { project, cwds: [runsIn], resolver, guarded: guardedDirs(ctx.env) };
    if (call.command !== undefined) {
      const problem = commandProblem(call.command, where, ctx);
      if (problem) return deny(problem, why);
    }
  } else if (shell && call.command!.length > MAX_OFFLINE_COMMAND) {
    return deny('the command is too large to check', why);
  }
  for (const c of call.candidates) {
    const entry = Object.hasOwn(DEFAULT_ACTIONS, c.action) ? DEFAULT_ACTIONS[c.action] : undefined;
    if (!entry || entry.tier !== 'auto') {
      const because = entry ? entry.why : 'an action the built-in table does not know asks';
      return deny(`${c.action} needs a person's approval (${because})`, why);
    }
    const problem = pathProblem(c, where, shell);
    if (problem) return deny(`${c.action} ${problem}`, why);
  }
  const top = call.candidates[0];
  const what = top ? top.action : 'this call';
  return {
    behavior: 'allow',
    reason: `Gatehouse: ${why}; ${what} is allowed by the built-in table (${top ? DEFAULT_ACTIONS[top.action]!.why : 'nothing to gate'})`,
  };
}

function deny(problem: string, why: string): HookDecision {
  return {
    behavior: 'deny',
    reason: `Gatehouse: ${why}, and ${problem}, so it is denied. ${START_GATEHOUSE}.`,
  };
}

/** Where the call runs: the project, the working directories its command may reach. */
interface Where {
  project: string;
  cwds: string[];
  resolver: PathResolver;
  guarded: string[];
}

/**
 * Why a shell command cannot run offline, judged by the daemon's own path analysis
 * (shared/tools/shell-paths.ts): too large to parse, not knowable before it runs, a path
 * Gatehouse cannot resolve, a process's memory or a socket, Gatehouse's own files, or a
 * write to a protected location. Sets `where.cwds` to every directory the command may `cd` to.
 */
function commandProblem(command: string, where: Where, ctx: OfflineContext): string | undefined {
  if (command.length > MAX_OFFLINE_COMMAND) return 'the command is too large to check';
  if (!ctx.shell) return 'the command cannot be parsed here';
  const analysis = ctx.shell.analyse(command);
  if (analysis.opaque.length) return `the command ${analysis.opaque[0]!.reason}`;
  // Gatehouse's secret variables (a hub token): named, or printed with the whole environment.
  const secret = shownSecretVariable(command, analysis, ctx.secretVariables);
  if (secret) return `the command would show ${secret.name}, Gatehouse's own secret`;
  // The agent's shell inherits the hook's CDPATH: `cd name` may go through it.
  const scan = scanCommandPaths(
    command,
    analysis,
    where.cwds,
    where.resolver,
    ctx.env.CDPATH || undefined,
  );
  if (scan.unresolved)
    return `the command names ${scan.unresolved.word}: ${scan.unresolved.reason}`;
  where.cwds = scan.cwds;
  for (const use of scan.uses) {
    for (const r of use.paths) {
      for (const p of [r.real, r.lexical]) {
        const device = specialDevice(p);
        if (device) return `the command reaches ${device}`;
        if (where.guarded.some((g) => inside(p, g)))
          return `the command touches Gatehouse's own files (${use.word})`;
        const loc =
          use.role === 'write'
            ? protectedLocation(p, homedir(), false, [], configHomesIn(ctx.env))
            : undefined;
        if (loc) return `the command may write ${use.word}, ${loc.what}`;
      }
    }
  }
  return undefined;
}

/** Why the candidate's paths keep it from running offline, or undefined when they do not. */
function pathProblem(c: ActionSpec, where: Where | undefined, shell: boolean): string | undefined {
  const paths = c.paths ?? [];
  // A shell read without a path it could name (`grep -r x ~`, `cat $(…)`) may read anything.
  if (!paths.length) {
    if (!shell || NO_PATH_ACTIONS.has(c.action)) return undefined;
    return 'names no path Gatehouse could check';
  }
  if (!where) return 'has no project folder to stay inside';
  for (const raw of paths) {
    if (shell && SHELL_SPECIAL.test(raw)) return `touches ${raw}, which only the shell resolves`;
    // Taken against every directory the command may have moved to, as the kernel opens it.
    const found = where.resolver.resolve(raw, { cwds: where.cwds, vars: new Map(), literal: true });
    for (const full of found.paths.flatMap((r) => [r.real, r.lexical])) {
      if (where.guarded.some((g) => inside(full, g)))
        return `touches Gatehouse's own files (${raw})`;
      if (!inside(full, where.project)) return `touches ${raw}, outside the project`;
      const parts = relative(where.project, full).split(sep);
      if (parts.some((p) => SECRET_DIRS.has(p)) || SECRET_FILE.test(basename(full)))
        return `touches ${raw}, which looks like a secret`;
    }
  }
  return undefined;
}

const guardedDirs = (env: NodeJS.ProcessEnv): string[] =>
  [resolveHome(env), dirname(resolveSocketPath(env))].map((p) => real(resolve(p)));

const inside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The path with symlinks resolved as far as it exists: a link in the project may point anywhere. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(real(parent), basename(path));
  }
}
