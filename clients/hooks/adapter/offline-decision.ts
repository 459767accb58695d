import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DEFAULT_ACTIONS } from '../../../shared/policy/default-actions';
import { resolveHome, resolveSocketPath } from '../../../shared/node/socket-path';
import type { ActionSpec } from '../../../shared/tools/action-spec';
import { START_GATEHOUSE, type HookDecision } from './types';

export { START_GATEHOUSE } from './types';

/** Where the call happens and what must never be touched without Gatehouse. */
export interface OfflineContext {
  /** Claude Code's working directory: the project. Without it no path counts as inside. */
  cwd?: string;
  env: NodeJS.ProcessEnv;
}

/** The tool call as the table sees it. */
export interface OfflineCall {
  candidates: ActionSpec[];
  /** Set for shell commands: their paths came out of a command line, not a tool field. */
  command?: string;
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
  for (const c of call.candidates) {
    const entry = Object.hasOwn(DEFAULT_ACTIONS, c.action) ? DEFAULT_ACTIONS[c.action] : undefined;
    if (!entry || entry.tier !== 'auto') {
      const because = entry ? entry.why : 'an action the built-in table does not know asks';
      return deny(`${c.action} needs a person's approval (${because})`, why);
    }
    const problem = pathProblem(c, ctx, shell);
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

/** Why the candidate's paths keep it from running offline, or undefined when they do not. */
function pathProblem(c: ActionSpec, ctx: OfflineContext, shell: boolean): string | undefined {
  const paths = c.paths ?? [];
  // A shell read without a path it could name (`grep -r x ~`, `cat $(…)`) may read anything.
  if (!paths.length) {
    if (!shell || NO_PATH_ACTIONS.has(c.action)) return undefined;
    return 'names no path Gatehouse could check';
  }
  if (!ctx.cwd || !isAbsolute(ctx.cwd)) return 'has no project folder to stay inside';
  const project = real(resolve(ctx.cwd));
  const guarded = guardedDirs(ctx.env);
  for (const raw of paths) {
    if (shell && SHELL_SPECIAL.test(raw)) return `touches ${raw}, which only the shell resolves`;
    const full = real(resolve(project, expandHome(raw)));
    if (guarded.some((g) => inside(full, g))) return `touches Gatehouse's own files (${raw})`;
    if (!inside(full, project)) return `touches ${raw}, outside the project`;
    const parts = relative(project, full).split(sep);
    if (parts.some((p) => SECRET_DIRS.has(p)) || SECRET_FILE.test(basename(full)))
      return `touches ${raw}, which looks like a secret`;
  }
  return undefined;
}

const guardedDirs = (env: NodeJS.ProcessEnv): string[] =>
  [resolveHome(env), dirname(resolveSocketPath(env))].map((p) => real(resolve(p)));

const expandHome = (raw: string): string =>
  raw === '~' ? homedir() : raw.startsWith('~/') ? join(homedir(), raw.slice(2)) : raw;

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
