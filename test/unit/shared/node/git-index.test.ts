import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTrackedFiles, indexPaths } from '../../../../shared/node/git-index';

/** Real indexes written by git, of every version and object format it writes, parsed. */
describe('indexPaths / createTrackedFiles: what git tracks, read from its index', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-git-index-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const NAMES = [
    '.env',
    'src/app.ts',
    'src/ä-ünïcode.txt',
    'deep/er/still/id_ed25519',
    `${'d'.repeat(200)}/${'n'.repeat(200)}.key`,
    'zz/last.pem',
  ];

  function repo(name: string, init: string[] = []): string {
    const dir = join(root, name);
    mkdirSync(dir);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q', ...init);
    for (const n of NAMES) {
      mkdirSync(dirname(join(dir, n)), { recursive: true });
      writeFileSync(join(dir, n), n);
    }
    git('add', '-f', ...NAMES);
    writeFileSync(join(dir, 'untracked.env'), 'x');
    return dir;
  }
  const git = (dir: string, ...args: string[]) =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8' });

  it.each([
    ['version 2', [], undefined],
    ['version 4 (prefix-compressed paths)', [], '4'],
    ['version 3 (an intent-to-add entry)', [], 'N'],
    ['a SHA-256 repository', ['--object-format=sha256'], undefined],
  ])('%s: every path git lists, and only those', (name, init, variant) => {
    const dir = repo(name.replace(/\W+/g, '-'), init);
    if (variant === '4') git(dir, 'update-index', '--index-version', '4');
    if (variant === 'N') {
      writeFileSync(join(dir, 'intent.txt'), 'x');
      git(dir, 'add', '-N', 'intent.txt');
    }
    const listed = git(dir, 'ls-files', '-z').split('\0').filter(Boolean);
    const paths = indexPaths(readFileSync(join(dir, '.git/index')));
    expect(paths && [...paths].sort()).toEqual(listed.sort());
    expect(paths?.has('.env')).toBe(true);
    expect(paths?.has('untracked.env')).toBe(false);
  });

  it('createTrackedFiles: an index change is seen; outside a repository nothing is tracked; an index it cannot read counts all', () => {
    const dir = repo('tracked');
    const tracked = createTrackedFiles();
    expect(tracked(join(dir, '.env'))).toBe(true);
    expect(tracked(join(dir, 'deep/er/still/id_ed25519'))).toBe(true);
    expect(tracked(join(dir, 'untracked.env'))).toBe(false);
    git(dir, 'add', '-f', 'untracked.env');
    expect(tracked(join(dir, 'untracked.env'))).toBe(true);
    git(dir, 'rm', '-q', '--cached', '.env');
    expect(tracked(join(dir, '.env'))).toBe(false);
    const outside = join(root, 'plain');
    mkdirSync(outside);
    expect(tracked(join(outside, '.env'))).toBe(false);
    // A fresh repository has no index: nothing tracked.
    const fresh = join(root, 'fresh');
    mkdirSync(fresh);
    git(fresh, 'init', '-q');
    expect(tracked(join(fresh, '.env'))).toBe(false);
    // Not an index: every file counts as tracked (the safe side for a search of tracked files).
    writeFileSync(join(fresh, '.git/index'), 'DIRC but not really');
    expect(tracked(join(fresh, '.env'))).toBe(true);
    rmSync(join(fresh, '.git/index'));
    execFileSync('mkfifo', [join(fresh, '.git/index')]);
    expect(tracked(join(fresh, '.env'))).toBe(true);
  });

  it('a linked worktree reads its own index', () => {
    const dir = repo('main-tree');
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x');
    const wt = join(root, 'linked');
    git(dir, 'worktree', 'add', '-q', wt);
    const tracked = createTrackedFiles();
    expect(tracked(join(wt, '.env'))).toBe(true);
    expect(tracked(join(wt, 'untracked.env'))).toBe(false);
  });
});
