import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rememberedIgnoreReads, surelyIgnored } from '../../../../shared/node/gitignore-check';

describe('surelyIgnored: what .gitignore surely keeps out of a search that honours it', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-gitignore-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  /** A repository (or, with `repo: false`, a plain folder) holding `files`. */
  const tree = (files: Record<string, string>, repo = true) => {
    const dir = join(root, `t${n++}`);
    if (repo) mkdirSync(join(dir, '.git', 'info'), { recursive: true });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it('a name, a name glob, an anchored name and a folder, from the root or a folder on the way', () => {
    const dir = tree({
      '.gitignore': '.env\n*.pem\n/top.key\nbuild/\n',
      'a/.gitignore': '.secret*\n',
    });
    for (const path of [
      '.env',
      'x/y/.env',
      'c/server.pem',
      'top.key',
      'build/.env.x',
      'a/b/.secret1',
    ])
      expect(surelyIgnored(join(dir, path)), path).toBe(true);
    for (const path of ['.env.local', 'x/top.key', 'build', '.secret1', 'x/build'])
      expect(surelyIgnored(join(dir, path)), path).toBe(false);
    const exclude = tree({ '.git/info/exclude': '.env.local\n' });
    expect(surelyIgnored(join(exclude, 'app/.env.local'))).toBe(true);
  });

  it('a folder: a line `name/` names it too, remembered reads answer as fresh ones', () => {
    const dir = tree({ '.gitignore': 'build/\n/dist/\n', 'x/.gitignore': 'out\n' });
    const reads = rememberedIgnoreReads();
    for (const o of [{ folder: true }, { folder: true, reads }]) {
      for (const path of ['build', 'x/build', 'dist', 'x/out'])
        expect(surelyIgnored(join(dir, path), undefined, o), path).toBe(true);
      for (const path of ['x/dist', 'src', 'out'])
        expect(surelyIgnored(join(dir, path), undefined, o), path).toBe(false);
    }
    expect(surelyIgnored(join(dir, 'build'))).toBe(false);
    // What a walk read still holds until an ignore file reads otherwise or one appears.
    expect(reads.unchanged()).toBe(true);
    writeFileSync(join(dir, 'x/.gitignore'), 'out\nmore\n');
    expect(reads.unchanged()).toBe(false);
    writeFileSync(join(dir, 'x/.gitignore'), 'out\n');
    expect(reads.unchanged()).toBe(true);
    writeFileSync(join(dir, 'x/.rgignore'), '');
    expect(reads.unchanged()).toBe(false);
  });

  it('not in a repository, nothing is kept out', () => {
    const dir = tree({ '.gitignore': '.env\n' }, false);
    expect(surelyIgnored(join(dir, '.env'))).toBe(false);
  });

  it('errs towards read: a negation, an .ignore or .rgignore on the way, lines read otherwise elsewhere', () => {
    expect(surelyIgnored(join(tree({ '.gitignore': '.env\n!.env\n' }), '.env'))).toBe(false);
    expect(
      surelyIgnored(join(tree({ '.gitignore': '.env\n', 'a/.gitignore': '!x\n' }), 'a/.env')),
    ).toBe(false);
    expect(surelyIgnored(join(tree({ '.gitignore': '.env\n', 'a/.ignore': '' }), 'a/.env'))).toBe(
      false,
    );
    expect(surelyIgnored(join(tree({ '.gitignore': '.env\n', '.rgignore': '' }), '.env'))).toBe(
      false,
    );
    for (const line of ['**/.env', 'a/.env', '.e[n]v', '\\.env', '.env\\ '])
      expect(surelyIgnored(join(tree({ '.gitignore': `${line}\n` }), 'a/.env')), line).toBe(false);
  });

  it('the nearest repository only: a parent repository’s .gitignore does not count in a nested one', () => {
    const dir = tree({ '.gitignore': '.env\n', 'inner/.git/HEAD': '' });
    expect(surelyIgnored(join(dir, 'inner/.env'))).toBe(false);
    expect(surelyIgnored(join(dir, 'other/.env'))).toBe(true);
  });

  it('a folder searched is read even where .gitignore names it, as rg reads a folder it is given', () => {
    const dir = tree({ '.gitignore': 'secret/\n.env\n' });
    // rg --hidden KEY secret/ reads secret/.env.local; from the root it does not.
    expect(surelyIgnored(join(dir, 'secret/.env.local'), join(dir, 'secret'))).toBe(false);
    expect(surelyIgnored(join(dir, 'secret/.env.local'), dir)).toBe(true);
    expect(surelyIgnored(join(dir, 'secret/deep/x.pem'), join(dir, 'secret'))).toBe(false);
    // A name below the searched folder still counts (.env is ignored wherever it is).
    expect(surelyIgnored(join(dir, 'secret/.env'), join(dir, 'secret'))).toBe(true);
  });
});
