import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn as git } from '../../support/git';
import { createHistorySecrets } from '../../../main/history-secrets';
import { createTrackedFiles } from '../../../shared/node/git-index';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function repository(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-history-unit-')));
  roots.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

function commit(dir: string, files: Record<string, string | null>, message = 'x'): void {
  for (const [name, text] of Object.entries(files)) {
    if (text === null) {
      git(dir, 'rm', '-q', '--cached', name);
      unlinkSync(join(dir, name));
      continue;
    }
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
    git(dir, 'add', name);
  }
  git(dir, 'commit', '-qm', message);
}

/** Secrets by name, as the daemon's check says: here `.env` files and `*.key`. */
const isSecret = (path: string) => /(^|\/)\.env$|\.key$/.test(path);

describe('createHistorySecrets: the secret files a repository history has held', () => {
  it('finds a .env removed since, from the repository and any folder below it', () => {
    const dir = repository();
    commit(dir, { '.env': 'A=1\n', 'src/a.ts': 'a\n' });
    commit(dir, { '.env': null });
    const find = createHistorySecrets({ isSecret });
    expect(find(dir, [])).toEqual({ path: join(dir, '.env') });
    expect(find(join(dir, 'src'), [])).toEqual({ path: join(dir, '.env') });
  });

  it('for the working tree (git diff), only a secret git tracks now counts', () => {
    const dir = repository();
    commit(dir, { '.env': 'A=1\n', 'b/x.key': 'k\n' });
    commit(dir, { '.env': null });
    const find = createHistorySecrets({ isSecret, isTracked: createTrackedFiles() });
    expect(find(dir, [], true)).toEqual({ path: join(dir, 'b/x.key') });
    expect(find(dir, ['.env'], true)).toBeUndefined();
    expect(find(dir, ['.env'])).toEqual({ path: join(dir, '.env') });
  });

  it('pathspecs narrow it, taken from where git runs; a glob or a magic one does not', () => {
    const dir = repository();
    commit(dir, { 'config/prod.key': 'k\n', 'src/a.ts': 'a\n' });
    const find = createHistorySecrets({ isSecret });
    expect(find(dir, ['src'])).toBeUndefined();
    expect(find(join(dir, 'src'), ['.'])).toBeUndefined();
    expect(find(dir, ['config'])).toEqual({ path: join(dir, 'config/prod.key') });
    expect(find(join(dir, 'src'), ['../config/prod.key'])).toEqual({
      path: join(dir, 'config/prod.key'),
    });
    expect(find(dir, ['*.ts'])).toBeDefined();
    expect(find(join(dir, 'src'), [':/'])).toBeDefined();
  });

  it('a commit only another branch, the stash or a reflog reaches counts', () => {
    const dir = repository();
    commit(dir, { 'a.txt': 'a\n' });
    git(dir, 'checkout', '-q', '-b', 'side');
    commit(dir, { 'side/.env': 'S=1\n' });
    git(dir, 'checkout', '-q', 'main');
    const find = createHistorySecrets({ isSecret });
    expect(find(dir, [])).toEqual({ path: join(dir, 'side/.env') });
    // Amended away: only the reflog reaches it.
    const other = repository();
    commit(other, { 'a.txt': 'a\n', 'old.key': 'k\n' });
    git(other, 'rm', '-q', '--cached', 'old.key');
    git(other, 'commit', '-q', '--amend', '-m', 'amended');
    expect(createHistorySecrets({ isSecret })(other, [])).toEqual({
      path: join(other, 'old.key'),
    });
  });

  it('outside a repository, in one without commits or without secrets: nothing', () => {
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-history-plain-')));
    roots.push(plain);
    const find = createHistorySecrets({ isSecret });
    expect(find(plain, [])).toBeUndefined();
    const empty = repository();
    writeFileSync(join(empty, '.env'), 'A=1\n');
    expect(find(empty, [])).toBeUndefined();
    commit(empty, { 'a.txt': 'a\n' });
    expect(find(empty, [])).toBeUndefined();
  });

  it('is read again when the refs change (a new commit)', () => {
    const dir = repository();
    commit(dir, { 'a.txt': 'a\n' });
    const find = createHistorySecrets({ isSecret });
    expect(find(dir, [])).toBeUndefined();
    commit(dir, { 'b/.env': 'B=1\n' });
    // At once: an answer kept even a second would let the next git log -p print it.
    expect(find(dir, [])).toEqual({ path: join(dir, 'b/.env') });
  });

  it('a linked worktree reads the shared history', () => {
    const dir = repository();
    commit(dir, { 'a.txt': 'a\n', 'x.key': 'k\n' });
    const tree = join(dir, '..', `${dir.split('/').pop()}-wt`);
    roots.push(tree);
    git(dir, 'worktree', 'add', '-q', tree, '-b', 'wt');
    expect(createHistorySecrets({ isSecret })(tree, [])).toEqual({ path: join(tree, 'x.key') });
  });

  it('a history that takes longer than the blocking read is unread, then read in the background', async () => {
    const dir = repository();
    commit(dir, { 'a.txt': 'a\n', '.env': 'A=1\n' });
    const find = createHistorySecrets({
      isSecret,
      syncLimits: { timeoutMs: 1, maxOutputBytes: 1 << 20 },
    });
    const first = find(dir, []);
    expect(first).toMatchObject({ unread: expect.stringContaining('larger than') });
    await expect
      .poll(() => find(dir, []), { timeout: 10_000 })
      .toEqual({ path: join(dir, '.env') });
    // The refs change: the last answer stands while the history is read again behind it.
    utimesSync(join(dir, '.git/refs/heads/main'), new Date(), new Date(Date.now() + 5000));
    expect(find(dir, [])).toEqual({ path: join(dir, '.env') });
  });

  it('past the budget of blocking reads, repositories are read in the background, two at a time', async () => {
    const dirs = [repository(), repository(), repository(), repository()];
    for (const dir of dirs) commit(dir, { 'a.txt': 'a\n', 'c.key': 'k\n' });
    const find = createHistorySecrets({ isSecret, syncBudgetMs: 0 });
    for (const dir of dirs) expect(find(dir, [])).toHaveProperty('unread');
    for (const dir of dirs)
      await expect
        .poll(() => find(dir, []), { timeout: 10_000 })
        .toEqual({ path: join(dir, 'c.key') });
  });

  it('git told by the repository to run programs runs none (the read is neutralised)', () => {
    const dir = repository();
    const marker = join(dir, 'ran');
    // A signing program that leaves a mark: git runs it to sign, and to check each signature
    // where log.showSignature is set.
    const gpg = join(dir, 'gpg.sh');
    writeFileSync(
      gpg,
      `#!/bin/sh\ntouch ${marker}\necho '[GNUPG:] SIG_CREATED D 1 8 00 1 X' >&2\nprintf -- '-----BEGIN PGP SIGNATURE-----\\nx\\n-----END PGP SIGNATURE-----\\n'\n`,
      { mode: 0o755 },
    );
    git(dir, 'config', 'gpg.program', gpg);
    git(dir, 'config', 'log.showSignature', 'true');
    git(dir, 'config', 'core.pager', `touch ${marker}; cat`);
    git(dir, 'config', 'diff.external', `touch ${marker}`);
    writeFileSync(join(dir, '.env'), 'A=1\n');
    git(dir, 'add', '.env');
    git(dir, 'commit', '-q', '-S', '-m', 'signed');
    // Calibration: git log there runs the program.
    rmSync(marker, { force: true });
    git(dir, 'log', '--name-only');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    expect(createHistorySecrets({ isSecret })(dir, [])).toEqual({ path: join(dir, '.env') });
    expect(existsSync(marker)).toBe(false);
  });
});
