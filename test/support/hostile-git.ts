import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A clean environment for setting up repositories (no user or system config). */
export const cleanGitEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ann Agent',
  GIT_AUTHOR_EMAIL: 'ann@example.com',
  GIT_COMMITTER_NAME: 'Ann Agent',
  GIT_COMMITTER_EMAIL: 'ann@example.com',
};

/** Runs git in `cwd` with {@link cleanGitEnv}; its standard output. */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: cleanGitEnv, encoding: 'utf8' });

/**
 * The attack on anything that reads a repository with git: every config key that can name a
 * program, and every hook, points at a script (written in `dir`) that appends to `marker`.
 * Reading the repository safely must never create `marker`; plain git does.
 */
export function armAgainstGit(repo: string, dir: string, marker: string): void {
  const evil = join(dir, 'evil.sh');
  writeFileSync(evil, `#!/bin/sh\necho ran "$0" "$@" >> '${marker}'\ncat\n`);
  chmodSync(evil, 0o755);
  const hooks = join(dir, 'hooks');
  mkdirSync(hooks, { recursive: true });
  for (const hook of ['pre-push', 'post-checkout', 'reference-transaction', 'post-index-change']) {
    writeFileSync(join(hooks, hook), `#!/bin/sh\necho ${hook} >> '${marker}'\n`);
    chmodSync(join(hooks, hook), 0o755);
  }
  for (const [key, value] of [
    ['core.fsmonitor', evil],
    ['core.pager', evil],
    ['pager.log', evil],
    ['pager.diff', evil],
    ['diff.external', evil],
    ['core.hooksPath', hooks],
    ['log.showSignature', 'true'],
    ['gpg.program', evil],
    ['diff.evil.textconv', evil],
    ['core.sshCommand', evil],
    ['alias.log', `!${evil}`],
  ] as const)
    git(repo, 'config', key, value);
  writeFileSync(join(repo, '.gitattributes'), '* diff=evil\n');
}

/**
 * Adds `count` commits on `main` of `repo` (a clone whose origin has `main`), the first on
 * `origin/main`, each changing one of `files` files: made with fast-import, which writes them
 * without a work tree, then checked out.
 */
export function addManyCommits(repo: string, count: number, files: number): void {
  const lines: string[] = [];
  for (let i = 1; i <= count; i++)
    lines.push(
      'commit refs/heads/main',
      `committer Ann <ann@example.com> ${1_700_000_000 + i} +0000`,
      `data ${`c${i}`.length}`,
      `c${i}`,
      ...(i === 1 ? ['from refs/remotes/origin/main'] : []),
      `M 644 inline n${i % files}.txt`,
      `data ${`${i}\n`.length}`,
      `${i}`,
      '',
    );
  execFileSync('git', ['fast-import', '--quiet'], {
    cwd: repo,
    // glibc's malloc gives memory back after each of fast-import's many small frees: 120,000
    // brk calls, 9 s of a 10,000-commit import on this machine; kept, the import takes 0.4 s.
    env: { ...cleanGitEnv, MALLOC_TOP_PAD_: '268435456', MALLOC_TRIM_THRESHOLD_: '536870912' },
    input: lines.join('\n') + '\n',
  });
  git(repo, 'reset', '--hard', '--quiet', 'main');
}
