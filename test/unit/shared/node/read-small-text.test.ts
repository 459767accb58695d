import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFiles } from '../../../../shared/node/git-config-includes';
import { createGitHooksPaths } from '../../../../shared/node/git-hooks-path';
import { surelyIgnored } from '../../../../shared/node/gitignore-check';
import {
  createCredentialFiles,
  createRepositoryCredentials,
} from '../../../../shared/node/git-url-credentials';
import { readSmallText } from '../../../../shared/node/read-small-text';

describe('readSmallText: the files the daemon reads that an agent can put in a project', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-small-text-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads a small regular file; not a folder, a larger file, or one not there', () => {
    writeFileSync(join(root, 'a.txt'), 'hello');
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(2000));
    expect(readSmallText(join(root, 'a.txt'))).toBe('hello');
    expect(readSmallText(join(root, 'big.txt'), 1000)).toBeUndefined();
    expect(readSmallText(root)).toBeUndefined();
    expect(readSmallText(join(root, 'none'))).toBeUndefined();
  });

  it('a FIFO named .gitignore, .npmrc or .git/config does not stall the checks that read them', () => {
    const repo = join(root, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    for (const name of ['.gitignore', '.npmrc', '.git/config'])
      execFileSync('mkfifo', [join(repo, name)]);
    // Each would block forever on a plain read: no writer ever opens the FIFO.
    expect(readSmallText(join(repo, '.npmrc'))).toBeUndefined();
    expect(surelyIgnored(join(repo, '.env'))).toBe(false);
    expect(createCredentialFiles()(join(repo, '.npmrc'))).toBeUndefined();
    expect(createRepositoryCredentials()(repo)).toBeUndefined();
  });

  it("a FIFO as a worktree's .git file, its commondir or an included config does not stall the git checks", () => {
    // A writer opens each FIFO two seconds on (then a blocking read would end), so the code
    // before this fix fails here by its time instead of hanging the run.
    const worktree = join(root, 'worktree');
    const gitdir = join(root, 'gitdir');
    const repo = join(root, 'repo2');
    mkdirSync(worktree, { recursive: true });
    mkdirSync(gitdir, { recursive: true });
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(join(repo, '.git/config'), `[include]\n\tpath = ${join(root, 'included')}\n`);
    const fifos = {
      [join(worktree, '.git')]: `gitdir: ${gitdir}\n`,
      [join(gitdir, 'commondir')]: '..\n',
      [join(root, 'included')]: '[core]\n\thooksPath = /tmp/hooks\n',
    };
    const writers = Object.entries(fifos).map(([path, text]) => {
      execFileSync('mkfifo', [path]);
      return spawn('sh', ['-c', 'sleep 2; printf "%s" "$1" > "$2"', 'sh', text, path], {
        stdio: 'ignore',
      });
    });
    try {
      const started = Date.now();
      expect(configFiles(worktree)).toEqual([]);
      const hooks = createGitHooksPaths(root, {});
      expect(hooks([repo])).not.toContain('/tmp/hooks');
      expect(hooks([worktree])).toEqual([]);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      for (const w of writers) w.kill('SIGKILL');
    }
  });
});
