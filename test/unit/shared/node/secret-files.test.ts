import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrackedFiles } from '../../../../shared/node/git-index';
import { createSecretFileFinder } from '../../../../shared/node/secret-files';

const isSecret = (name: string) => /^\.env/.test(name) || name.endsWith('.pem');

describe('createSecretFileFinder: the first secret a search under a folder reads', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-secret-walk-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const tree = (name: string, files: Record<string, string>) => {
    const dir = join(root, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  const all = { hidden: true, ignores: false, only: [] };

  it('finds the shallowest first, and reads hidden names only when the search does', () => {
    const dir = tree('app', {
      'src/deep/x/server.pem': '',
      '.env': 'KEY=1',
      'src/a.ts': '',
      '.config/local.pem': '',
    });
    const find = createSecretFileFinder(isSecret);
    expect(find(dir, all)).toBe(join(dir, '.env'));
    expect(find(dir, { hidden: false, ignores: false, only: [] })).toBe(
      join(dir, 'src/deep/x/server.pem'),
    );
    expect(find(dir, { hidden: true, ignores: false, only: ['*.ts'] })).toBeUndefined();
    expect(find(dir, { hidden: false, ignores: false, only: ['*.pem'] })).toBe(
      join(dir, 'src/deep/x/server.pem'),
    );
    expect(find(join(dir, 'src/a.ts'), all)).toBeUndefined();
  });

  it("depth 0 (diff without -r): the folder's own files only, not its folders or .git/config", () => {
    const dir = tree('shallow', { 'conf/.env': 'KEY=1', 'a.txt': '' });
    const credential = (folder: string) => join(folder, '.git', 'config');
    mkdirSync(join(dir, '.git'));
    const find = createSecretFileFinder(isSecret, credential);
    expect(find(dir, { ...all, depth: 0 })).toBeUndefined();
    expect(find(dir, all)).toBe(join(dir, '.git', 'config'));
    writeFileSync(join(dir, '.env'), 'KEY=1');
    expect(createSecretFileFinder(isSecret)(dir, { ...all, depth: 0 })).toBe(join(dir, '.env'));
  });

  it('does not enter node_modules or .git', () => {
    const skipped = tree('skipped', { 'node_modules/p/.env': '', '.git/x.pem': '', 'a.txt': '' });
    expect(createSecretFileFinder(isSecret)(skipped, all)).toBeUndefined();
  });

  it('--iglob: a glob of another case reads the name', () => {
    const dir = tree('caseless', { '.env': 'KEY=1' });
    const find = createSecretFileFinder(isSecret);
    expect(find(dir, { ...all, only: ['*.ENV'] })).toBeUndefined();
    expect(find(dir, { ...all, only: ['*.ENV'], caseless: true })).toBe(join(dir, '.env'));
  });

  it('a search that honours .gitignore: only a secret .gitignore does not keep out', () => {
    const honours = { hidden: true, ignores: true, only: [] };
    const find = () => createSecretFileFinder(isSecret);
    // Not a repository: .gitignore is not honoured (rg reads it only inside one).
    const plain = tree('plain', { '.env': 'KEY=1', '.gitignore': '.env\n' });
    expect(find()(plain, honours)).toBe(join(plain, '.env'));
    const repo = tree('repo', {
      '.git/HEAD': '',
      '.gitignore': '# local files\n.env\n/dist/\n',
      '.env': 'KEY=1',
      'certs/server.pem': '',
      'dist/.env.production': '',
      'sub/.env.local': 'KEY=2',
    });
    // .env and dist/ are kept out; certs/server.pem and sub/.env.local are not: the PEM first
    // (a folder's names before the folders under it).
    expect(find()(repo, honours)).toBe(join(repo, 'certs/server.pem'));
    // Told nothing, rg reads no hidden name: the PEM all the same.
    expect(find()(repo, { ...honours, hidden: false })).toBe(join(repo, 'certs/server.pem'));
    writeFileSync(join(repo, '.gitignore'), '.env\n/dist/\n*.pem\n');
    expect(find()(repo, honours)).toBe(join(repo, 'sub/.env.local'));
    expect(find()(repo, { ...honours, hidden: false })).toBeUndefined();
    writeFileSync(join(repo, 'sub/.gitignore'), '.env.*\n');
    expect(find()(repo, honours)).toBeUndefined();
    // Without honouring it, the first secret: .env.
    expect(find()(repo, all)).toBe(join(repo, '.env'));
  });

  it('a search that reads hidden names reads .git/config: a repository credential is found there', () => {
    const dir = tree('credential', { '.git/config': 'x', 'src/a.ts': '' });
    const config = join(dir, '.git', 'config');
    const find = createSecretFileFinder(isSecret, (d) => (d === dir ? config : undefined));
    expect(find(dir, all)).toBe(config);
    expect(find(dir, { hidden: true, ignores: true, only: [] })).toBe(config);
    expect(find(dir, { hidden: false, ignores: false, only: [] })).toBeUndefined();
    expect(find(dir, { ...all, only: ['*.ts'] })).toBeUndefined();
  });

  it('plain git grep: the files git tracks, whatever .gitignore says; no other', () => {
    const repo = tree('tracked', {
      '.git/HEAD': '',
      '.gitignore': '.env\n',
      '.env': 'KEY=1',
      'deploy/server.pem': 'key',
    });
    const trackedFiles = new Set<string>();
    const find = () => createSecretFileFinder(isSecret, undefined, (p) => trackedFiles.has(p));
    const plain = { hidden: true, ignores: true, tracked: true, only: [] };
    // Nothing tracked: it reads neither (rg would read the PEM .gitignore does not name).
    expect(find()(repo, plain)).toBeUndefined();
    expect(find()(repo, { ...plain, tracked: false })).toBe(join(repo, 'deploy/server.pem'));
    // .env committed before .gitignore named it: read.
    trackedFiles.add(join(repo, '.env'));
    expect(find()(repo, plain)).toBe(join(repo, '.env'));
    trackedFiles.clear();
    trackedFiles.add(join(repo, 'deploy/server.pem'));
    expect(find()(repo, plain)).toBe(join(repo, 'deploy/server.pem'));
  });

  it('a walk that follows links reads through them, once per folder; the secret is known by where it is', () => {
    const elsewhere = tree('elsewhere', { 'conf/app.txt': 'x', 'conf/.env': 'KEY=1' });
    const dir = tree('links', { 'src/a.ts': '' });
    symlinkSync(join(elsewhere, 'conf'), join(dir, 'src/conf'));
    // A loop: a link to a folder above.
    symlinkSync(dir, join(dir, 'src/loop'));
    symlinkSync(join(elsewhere, 'conf/.env'), join(dir, 'settings.txt'));
    const seen: string[] = [];
    const find = createSecretFileFinder((name, path) => {
      seen.push(path);
      return isSecret(name);
    });
    const walk = { hidden: true, ignores: false, only: [] };
    expect(find(dir, walk)).toBeUndefined();
    // Followed: the link named settings.txt is the .env where it leads.
    expect(find(dir, { ...walk, follow: true })).toBe(join(dir, 'settings.txt'));
    const deeper = createSecretFileFinder(isSecret);
    rmSync(join(dir, 'settings.txt'));
    expect(deeper(dir, { ...walk, follow: true })).toBe(join(dir, 'src/conf/.env'));
    expect(seen).toContain(join(elsewhere, 'conf/.env'));
  });

  describe('past the 50,000 names a walk looks at', () => {
    // A repository with 54,000 files in target/ (.gitignore names it), as a build leaves or an
    // agent that can write files makes to hide a secret deeper than the walk looks.
    let big: string;
    beforeAll(() => {
      big = join(root, 'big');
      // src/deep/er: a level below target's files, which the walk meets first whatever the order.
      mkdirSync(join(big, 'src/deep/er'), { recursive: true });
      writeFileSync(join(big, 'src/a.ts'), '');
      writeFileSync(join(big, '.gitignore'), 'target/\n');
      const made = spawnSync(
        'bash',
        [
          '-c',
          'git init -q && mkdir -p target/d{0..59} && for d in target/d*; do (cd $d && seq 0 899 | xargs touch); done',
        ],
        { cwd: big, encoding: 'utf8' },
      );
      expect(made.status, made.stderr).toBe(0);
    });
    const honours = { hidden: true, ignores: true, only: [] };
    const plainGitGrep = { ...honours, tracked: true };

    it('a secret at the top is found; none seen by then: unwalked, what is beyond is not known', () => {
      writeFileSync(join(big, '.env.local'), 'KEY=1');
      expect(createSecretFileFinder(isSecret)(big, all)).toBe(join(big, '.env.local'));
      rmSync(join(big, '.env.local'));
      writeFileSync(join(big, 'src/deep/er/.env'), 'KEY=1');
      expect(createSecretFileFinder(isSecret)(big, all)).toEqual({ unwalked: big, names: 50_000 });
      rmSync(join(big, 'src/deep/er/.env'));
      expect(createSecretFileFinder(isSecret)(big, all)).toEqual({ unwalked: big, names: 50_000 });
    });

    it('a search that honours .gitignore is walked again without the folders it names', () => {
      expect(createSecretFileFinder(isSecret)(big, honours)).toBeUndefined();
      writeFileSync(join(big, 'src/deep/er/.env'), 'KEY=1');
      expect(createSecretFileFinder(isSecret)(big, honours)).toBe(join(big, 'src/deep/er/.env'));
      rmSync(join(big, 'src/deep/er/.env'));
      // Not a line git, rg and ag read alike: the folder is walked, and what is past is not known.
      writeFileSync(join(big, '.gitignore'), 'target/\n!keep\n');
      expect(createSecretFileFinder(isSecret)(big, honours)).toEqual({
        unwalked: big,
        names: 50_000,
      });
      writeFileSync(join(big, '.gitignore'), 'target/\n');
      // Within the second the walk is kept: .gitignore is read again all the same.
      const find = createSecretFileFinder(isSecret);
      expect(find(big, honours)).toBeUndefined();
      writeFileSync(join(big, '.gitignore'), 'other/\n');
      expect(find(big, honours)).toEqual({ unwalked: big, names: 50_000 });
      writeFileSync(join(big, '.gitignore'), 'target/\n');
    });

    it('a walk is kept the second while the folders it read and the ignore files are as they were', () => {
      // Counting the names looked at tells a kept walk from one made again.
      let looked = 0;
      const find = createSecretFileFinder((name) => (looked++, isSecret(name)));
      const walks = () => {
        const before = looked;
        const answer = find(big, honours);
        return { answer, walked: looked > before };
      };
      expect(walks()).toEqual({ answer: undefined, walked: true });
      expect(walks()).toEqual({ answer: undefined, walked: false });
      // A key made, or a folder .gitignore names renamed, within the second: walked again.
      writeFileSync(join(big, 'src/deep/er/.env'), 'KEY=1');
      expect(walks()).toEqual({ answer: join(big, 'src/deep/er/.env'), walked: true });
      rmSync(join(big, 'src/deep/er/.env'));
      expect(walks()).toEqual({ answer: undefined, walked: true });
      mkdirSync(join(big, 'target/keys'));
      writeFileSync(join(big, 'target/keys/server.pem'), 'key');
      expect(walks()).toEqual({ answer: undefined, walked: true });
      expect(walks()).toEqual({ answer: undefined, walked: false });
      renameSync(join(big, 'target/keys'), join(big, 'src/keys'));
      expect(walks()).toEqual({ answer: join(big, 'src/keys/server.pem'), walked: true });
      rmSync(join(big, 'src/keys'), { recursive: true });
      expect(walks()).toEqual({ answer: undefined, walked: true });
      // An .ignore made where none was (it can bring target/ back): walked again, target/
      // with the rest, and what is past the names is not known.
      writeFileSync(join(big, '.ignore'), '');
      expect(walks()).toEqual({ answer: { unwalked: big, names: 50_000 }, walked: true });
      rmSync(join(big, '.ignore'));
      expect(walks()).toEqual({ answer: undefined, walked: true });
      // A .gitignore rewritten to the same lines reads the same: kept; one made on the way to
      // a folder walked: walked again.
      writeFileSync(join(big, '.gitignore'), 'target/\n');
      expect(walks()).toEqual({ answer: undefined, walked: false });
      writeFileSync(join(big, 'src/deep/.gitignore'), 'other\n');
      expect(walks().walked).toBe(true);
      rmSync(join(big, 'src/deep/.gitignore'));
    });

    it("plain git grep: git's index lists the files it reads, past the names walked too", () => {
      const tracked = createTrackedFiles();
      writeFileSync(join(big, 'src/deep/er/server.pem'), 'key');
      const add = spawnSync('git', ['add', 'src'], { cwd: big, encoding: 'utf8' });
      expect(add.status, add.stderr).toBe(0);
      expect(createSecretFileFinder(isSecret, undefined, tracked)(big, plainGitGrep)).toBe(
        join(big, 'src/deep/er/server.pem'),
      );
      spawnSync('git', ['rm', '-q', '--cached', 'src/deep/er/server.pem'], { cwd: big });
      expect(createSecretFileFinder(isSecret, undefined, tracked)(big, plainGitGrep)).toBe(
        undefined,
      );
      rmSync(join(big, 'src/deep/er/server.pem'));
    });

    it('a walk that follows a link to such a folder elsewhere: unwalked', () => {
      const linking = tree('linking', { 'a.ts': '' });
      symlinkSync(join(big, 'target'), join(linking, 'big'));
      const walk = { hidden: true, ignores: false, only: [] };
      expect(createSecretFileFinder(isSecret)(linking, walk)).toBeUndefined();
      expect(createSecretFileFinder(isSecret)(linking, { ...walk, follow: true })).toEqual({
        unwalked: linking,
        names: 50_000,
      });
    });
  });
});
