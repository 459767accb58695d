import { execFile, execFileSync } from 'node:child_process';

/**
 * Runs a read-only git command in a directory the agent controls, so that nothing in the
 * repository's config (or the user's, which the agent may also have written) can make it run
 * a program: no fsmonitor, pager, external diff, textconv, hooks or signature check, no system
 * or global config, no prompt, only the variables git needs, a timeout and bounded output.
 */

/** Config that could name a program, turned off on the command line (which wins over files). */
const NEUTRAL_CONFIG = [
  'core.fsmonitor=',
  'core.pager=cat',
  'diff.external=',
  'core.hooksPath=/dev/null',
  'log.showSignature=false',
  'gpg.program=/bin/false',
  'core.sshCommand=/bin/false',
  'core.askPass=',
  'credential.helper=',
  'protocol.allow=never',
].flatMap((c) => ['-c', c]);

export interface GitLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

export const GIT_LIMITS: GitLimits = { timeoutMs: 5000, maxOutputBytes: 1_000_000 };

export type GitOutcome = { ok: true; out: string } | { ok: false; error: string };

/**
 * The sub-commands run, all of them reading objects and refs only: none refreshes the index
 * or reads the work tree, which is where clean and smudge filters and fsmonitor would run.
 */
const READ_ONLY = new Set([
  'rev-list',
  'log',
  'diff',
  'config',
  'remote',
  'symbolic-ref',
  'rev-parse',
]);

/** Options that keep a patch from running a program the repository's attributes name. */
const NO_PROGRAMS: Readonly<Record<string, readonly string[]>> = {
  diff: ['--no-ext-diff', '--no-textconv'],
  log: ['--no-ext-diff', '--no-textconv', '--no-show-signature'],
};

/** The command line and process options a read-only git command runs with, or why not. */
function invocation(
  cwd: string,
  args: readonly string[],
  limits: GitLimits,
):
  | {
      argv: string[];
      options: {
        cwd: string;
        timeout: number;
        maxBuffer: number;
        killSignal: NodeJS.Signals;
        windowsHide: boolean;
        env: NodeJS.ProcessEnv;
      };
    }
  | { error: string } {
  const [sub = '', ...rest] = args;
  if (!READ_ONLY.has(sub)) return { error: `git ${sub}: not run` };
  if (sub === 'config' && rest[0] !== '--get') return { error: 'git config: only --get is run' };
  if (sub === 'remote' && rest[0] !== 'get-url')
    return { error: 'git remote: only get-url is run' };
  return {
    argv: [
      '--no-pager',
      '--no-optional-locks',
      ...NEUTRAL_CONFIG,
      sub,
      ...(NO_PROGRAMS[sub] ?? []),
      ...rest,
    ],
    options: {
      cwd,
      timeout: limits.timeoutMs,
      maxBuffer: limits.maxOutputBytes,
      killSignal: 'SIGKILL',
      windowsHide: true,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_TERMINAL_PROMPT: '0',
        GIT_PAGER: 'cat',
        PAGER: 'cat',
        GIT_OPTIONAL_LOCKS: '0',
        GIT_NO_REPLACE_OBJECTS: '1',
        LC_ALL: 'C',
      },
    },
  };
}

const firstLine = (e: Error): string => e.message.split('\n')[0] ?? 'git failed';

export function safeGit(
  cwd: string,
  args: readonly string[],
  limits: GitLimits = GIT_LIMITS,
): Promise<GitOutcome> {
  const run = invocation(cwd, args, limits);
  if ('error' in run) return Promise.resolve({ ok: false, error: run.error });
  return new Promise((done) => {
    execFile('git', run.argv, run.options, (error, stdout) => {
      done(error ? { ok: false, error: firstLine(error) } : { ok: true, out: stdout });
    });
  });
}

/**
 * {@link safeGit}, blocking: for a check that must answer at once (the engine's are
 * synchronous), with a short timeout so that a large repository cannot stall the daemon.
 */
export function safeGitSync(cwd: string, args: readonly string[], limits: GitLimits): GitOutcome {
  const run = invocation(cwd, args, limits);
  if ('error' in run) return { ok: false, error: run.error };
  try {
    const out = execFileSync('git', run.argv, {
      ...run.options,
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    });
    return { ok: true, out };
  } catch (e) {
    return { ok: false, error: firstLine(e as Error) };
  }
}
