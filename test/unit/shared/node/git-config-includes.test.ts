import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitConfigIncludes, includePaths } from '../../../../shared/node/git-config-includes';

describe('includePaths: what a git config file includes', () => {
  it('reads [include] and every [includeIf], as git writes and as people write them', () => {
    const text = [
      '[core]',
      '\tpath = not-an-include',
      '[include]',
      '\tpath = ../team.cfg',
      '[IncludeIf "gitdir:~/work/"]',
      '  PATH = "tools/with space.cfg" ; a comment',
      '[includeIf "onbranch:main"] path = same-line.cfg',
      '[include]',
      '\tpath = "esc\\"aped.cfg" # comment',
      '[alias]',
      '\tpath = alias-not-include',
    ].join('\n');
    expect(includePaths(text)).toEqual([
      '../team.cfg',
      'tools/with space.cfg',
      'same-line.cfg',
      'esc"aped.cfg',
    ]);
  });
});

describe('gitConfigIncludes: the files a repository config includes', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-git-includes-')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, stdio: 'ignore' });

  it('takes relative paths from the including file, follows nested includes and ~', () => {
    const repo = join(dir, 'repo');
    const home = join(dir, 'home');
    mkdirSync(home);
    git(dir, 'init', '-q', repo);
    git(repo, 'config', 'include.path', '../tools/a.cfg');
    git(repo, 'config', 'includeIf.onbranch:main.path', '~/b.cfg');
    mkdirSync(join(repo, 'tools'));
    writeFileSync(join(repo, 'tools/a.cfg'), '[include]\n\tpath = nested/c.cfg\n');
    // A symlink to a file in the project: both names count.
    symlinkSync(join(repo, 'tools/real.cfg'), join(repo, 'tools/nested-link'));
    writeFileSync(join(repo, 'tools/real.cfg'), '');
    mkdirSync(join(repo, 'tools/nested'));
    writeFileSync(join(repo, 'tools/nested/c.cfg'), '[include]\n\tpath = ../nested-link\n');
    expect(gitConfigIncludes(repo, home).sort()).toEqual(
      [
        join(repo, 'tools/a.cfg'),
        join(home, 'b.cfg'),
        join(repo, 'tools/nested/c.cfg'),
        join(repo, 'tools/nested-link'),
        join(repo, 'tools/real.cfg'),
      ].sort(),
    );
  });

  it("a linked worktree's includes come from the common config", () => {
    const repo = join(dir, 'main-repo');
    git(dir, 'init', '-q', '-b', 'main', repo);
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'x', '--author', 'a <a@b>');
    git(repo, 'config', 'include.path', '../shared.cfg');
    const wt = join(dir, 'wt');
    git(repo, 'worktree', 'add', '-q', wt);
    expect(gitConfigIncludes(wt)).toContain(join(repo, 'shared.cfg'));
  });

  it('nothing for a folder that is not a repository, or a cycle of includes', () => {
    expect(gitConfigIncludes(join(dir, 'none'))).toEqual([]);
    const repo = join(dir, 'cycle');
    git(dir, 'init', '-q', repo);
    git(repo, 'config', 'include.path', '../a.cfg');
    writeFileSync(join(repo, 'a.cfg'), '[include]\n\tpath = ./.git/config\n');
    expect(gitConfigIncludes(repo)).toEqual([join(repo, 'a.cfg'), join(repo, '.git/config')]);
  });
});
