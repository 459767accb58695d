import { describe, expect, it } from 'vitest';
import { searchWalk } from '../../../../../shared/tools/commands/search-tools';

describe('searchWalk: the folders a search prints the lines of, and which files', () => {
  it('reads a recursive grep: its folders after the pattern, hidden files, --include globs', () => {
    expect(searchWalk('grep', ['-rn', 'KEY', '.'])).toEqual({
      roots: ['.'],
      hidden: true,
      ignores: false,
      only: [],
    });
    expect(searchWalk('grep', ['-R', '-e', 'KEY', 'src', 'lib'])).toMatchObject({
      roots: ['src', 'lib'],
    });
    expect(
      searchWalk('egrep', ['--recursive', '--include=*.ts', '--include', '*.js', 'x']),
    ).toEqual({
      roots: [],
      hidden: true,
      ignores: false,
      only: ['*.ts', '*.js'],
    });
    expect(searchWalk('grep', ['-d', 'recurse', 'x', '.'])).toMatchObject({ roots: ['.'] });
    expect(searchWalk('grep', ['--directories=recurse', 'x'])).toMatchObject({ roots: [] });
  });

  it('leaves out a grep that does not recurse, and searches that print only names or counts', () => {
    for (const args of [
      ['-n', 'KEY', '.env'],
      ['-rl', 'KEY', '.'],
      ['-r', '--count', 'KEY'],
      ['-rq', 'KEY'],
      ['-r', '-L', 'KEY'],
    ])
      expect(searchWalk('grep', args), args.join(' ')).toBeUndefined();
    for (const args of [['-l', 'KEY'], ['--files'], ['-c', 'KEY'], ['-t', 'ts', 'KEY']])
      expect(searchWalk('rg', args), args.join(' ')).toBeUndefined();
    expect(searchWalk('ag', ['-l', 'KEY'])).toBeUndefined();
    expect(searchWalk('cat', ['.env'])).toBeUndefined();
  });

  it('reads rg and ag: hidden and ignored files when told, with rg -g globs; told nothing, neither', () => {
    // Told nothing, they still read a key or a state under a plain name .gitignore does not name.
    expect(searchWalk('rg', ['KEY'])).toMatchObject({ hidden: false, ignores: true });
    expect(searchWalk('ag', ['KEY', 'src'])).toEqual({
      roots: ['src'],
      hidden: false,
      ignores: true,
      only: [],
    });
    expect(searchWalk('rg', ['--no-ignore', 'KEY'])).toEqual({
      roots: [],
      hidden: false,
      ignores: false,
      only: [],
      caseless: false,
    });
    expect(searchWalk('rg', ['--hidden', 'KEY', 'config'])).toMatchObject({
      roots: ['config'],
      hidden: true,
      ignores: true,
    });
    expect(searchWalk('rg', ['-uu', 'KEY'])).toMatchObject({ hidden: true, ignores: false });
    expect(searchWalk('rg', ['-u', 'KEY'])).toMatchObject({ hidden: false, ignores: false });
    expect(searchWalk('rg', ['-u', '-g', '*.ts', '-g', '!*.test.ts', '-e', 'KEY', 'src'])).toEqual({
      roots: ['src'],
      hidden: false,
      ignores: false,
      only: ['*.ts'],
      caseless: false,
    });
    expect(
      searchWalk('rg', ['--hidden', '--type-add', 'env:*.env', '-t', 'env', 'KEY']),
    ).toMatchObject({ hidden: true });
    expect(searchWalk('ag', ['-U', '-A', '3', 'KEY', 'src'])).toEqual({
      roots: ['src'],
      hidden: false,
      ignores: false,
      only: [],
    });
    expect(searchWalk('ag', ['--hidden', 'KEY'])).toMatchObject({ hidden: true, ignores: true });
    expect(searchWalk('ag', ['-u', 'KEY'])).toMatchObject({ hidden: true, ignores: false });
  });

  it('follows links with grep -R, rg -L and ag -f; rg -L prints lines (grep -L prints names)', () => {
    expect(searchWalk('grep', ['-Rn', 'KEY'])).toMatchObject({ follow: true });
    expect(searchWalk('grep', ['-rn', 'KEY'])).not.toHaveProperty('follow');
    expect(searchWalk('rg', ['-L', '--hidden', 'KEY'])).toMatchObject({
      follow: true,
      hidden: true,
    });
    expect(searchWalk('rg', ['--follow', 'KEY'])).toMatchObject({ follow: true });
    expect(searchWalk('ag', ['-f', 'KEY'])).toMatchObject({ follow: true });
    expect(searchWalk('grep', ['-rL', 'KEY'])).toBeUndefined();
    expect(searchWalk('ag', ['-L', 'KEY'])).toBeUndefined();
  });

  it('keeps a glob that is a name; one rg reads as a path or expands is every name; --iglob ignores case', () => {
    expect(searchWalk('rg', ['--hidden', '--iglob', '*.ENV', 'KEY'])).toMatchObject({
      only: ['*.ENV'],
      caseless: true,
    });
    for (const glob of ['*.{env,txt}', 'config/**', '**/.env', '\\.env'])
      expect(searchWalk('rg', ['--hidden', '-g', glob, 'KEY']), glob).toMatchObject({
        only: ['*'],
      });
    expect(searchWalk('grep', ['-r', '--include=*.{env,x}', 'KEY'])).toMatchObject({
      only: ['*'],
    });
  });

  it('reads git grep: what is tracked; --untracked, every file within .gitignore (unless --no-exclude-standard); --no-index, every file', () => {
    expect(searchWalk('git', ['grep', '--untracked', '-n', 'KEY'])).toEqual({
      roots: [],
      hidden: true,
      ignores: true,
      only: [],
    });
    expect(
      searchWalk('git', ['-C', 'app', 'grep', '--untracked', '--no-exclude-standard', 'KEY']),
    ).toMatchObject({ roots: ['app'], ignores: false });
    expect(searchWalk('git', ['grep', 'KEY'])).toMatchObject({ hidden: true, tracked: true });
    expect(searchWalk('git', ['grep', 'KEY', 'HEAD~3'])).toMatchObject({ tracked: true });
    expect(searchWalk('git', ['grep', '--no-index', 'KEY'])).toEqual({
      roots: [],
      hidden: true,
      ignores: false,
      only: [],
    });
    expect(searchWalk('git', ['grep', '--no-index', '--exclude-standard', 'KEY'])).toEqual({
      roots: [],
      hidden: true,
      ignores: true,
      only: [],
    });
    // Told of another git folder, work tree or config: git's index here says nothing.
    for (const globals of [
      ['--git-dir=/x/.git'],
      ['--work-tree', '/x'],
      ['-c', 'core.worktree=/x'],
    ])
      expect(searchWalk('git', [...globals, 'grep', 'KEY']), globals.join(' ')).toEqual({
        roots: [],
        hidden: true,
        ignores: false,
        only: [],
      });
    for (const args of [
      ['grep', '-l', 'KEY'],
      ['grep', '--untracked', '-l', 'KEY'],
      ['log', '--untracked'],
    ])
      expect(searchWalk('git', args), args.join(' ')).toBeUndefined();
  });

  it('reads a diff of folders: every file of both, hidden ones, through links; -r goes down', () => {
    // `diff -rN src .` prints the whole of ./.env, which src does not hold; a plain diff of two
    // folders prints both sides of each file of the same name that differs.
    expect(searchWalk('diff', ['-rN', 'src', '.'])).toEqual({
      roots: ['src', '.'],
      hidden: true,
      ignores: false,
      only: [],
      follow: true,
      diff: true,
    });
    expect(searchWalk('diff', ['-ru', 'src', '.', '-N'])).not.toHaveProperty('depth');
    expect(searchWalk('diff', ['--recursive', '--new-file', 'a', 'b'])).toMatchObject({
      roots: ['a', 'b'],
    });
    expect(searchWalk('diff', ['-N', 'src', '.'])).toMatchObject({ depth: 0 });
    expect(searchWalk('diff', ['-u', 'a.txt', 'b.txt'])).toMatchObject({ depth: 0 });
    // -x names are not read: every file counts.
    expect(searchWalk('diff', ['-r', '-x', '.env', 'src', '.'])).toMatchObject({ only: [] });
  });

  it('leaves out a diff that prints only names (-q, --brief)', () => {
    for (const args of [['-rq', 'src', '.'], ['-r', '--brief', 'src', '.'], ['-r']])
      expect(searchWalk('diff', args), args.join(' ')).toBeUndefined();
  });
});
