import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../../shared/node/bash-parser';
import { createPathResolver } from '../../../../../shared/node/path-resolver';
import { scanCommandPaths, type PathScan } from '../../../../../shared/tools/shell-paths';
import type { ShellParser } from '../../../../../shared/tools/shell-syntax';

/** A project with folders to copy, on the real file system, read by the real resolver. */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-tree-writes-')));
const home = join(root, 'home');
const project = join(home, 'code/app');
const resolver = createPathResolver({ home, gatehouseHome: join(home, '.gatehouse') });
let shell: ShellParser;

beforeAll(async () => {
  shell = await loadBashParser();
  mkdirSync(join(project, 'evil/.claude'), { recursive: true });
  writeFileSync(join(project, 'evil/.claude/settings.json'), '{}');
  mkdirSync(join(project, 'dots'));
  writeFileSync(join(project, 'dots/.bashrc'), 'touch pwned\n');
  mkdirSync(join(project, 'plain/src'), { recursive: true });
  writeFileSync(join(project, 'plain/src/a.ts'), '');
  // A repository's own folder is not entered: its name alone is protected.
  mkdirSync(join(project, 'repo/.git/objects'), { recursive: true });
  for (let i = 0; i < 200; i++) writeFileSync(join(project, `repo/.git/objects/${i}`), '');
  mkdirSync(join(project, 'huge'));
  for (let i = 0; i <= 10_000; i++) writeFileSync(join(project, `huge/${i}`), '');
  mkdirSync(join(project, 'a/b'), { recursive: true });
});

const scan = (command: string): PathScan =>
  scanCommandPaths(command, shell.analyse(command), [project], resolver);
/** The paths the command writes without naming them (after `(it writes`). */
const unnamed = (s: PathScan): string[] =>
  s.uses
    .filter((u) => u.word.includes('named only inside'))
    .flatMap((u) => u.paths.map((p) => p.real));
const links = (s: PathScan): string[] =>
  s.uses.filter((u) => u.link).flatMap((u) => u.paths.map((p) => p.real));

describe('folders copied or moved into place', () => {
  it('write the protected names inside them at the destination, both ways it may land', () => {
    for (const command of [
      'cp -r evil out',
      'cp -a evil out',
      'mv evil out',
      'rsync -a evil out',
      'git mv evil out',
    ])
      expect(unnamed(scan(command)), command).toEqual([
        `${project}/out/.claude`,
        `${project}/out/evil/.claude`,
      ]);
    expect(unnamed(scan('cp -r -t out evil'))).toContain(`${project}/out/.claude`);
    expect(unnamed(scan('cp -rT evil/. .'))).toContain(`${project}/.claude`);
  });

  it('check dot names at the top against the home folder too', () => {
    expect(unnamed(scan('cp -r dots/. ~'))).toContain(`${home}/.bashrc`);
  });

  it('add nothing for a folder without protected names, a file, or a missing source', () => {
    for (const command of [
      'cp -r plain out',
      'cp plain/src/a.ts b.ts',
      'cp -r missing out',
      'mv a b',
    ])
      expect(unnamed(scan(command)), command).toEqual([]);
    expect(scan('cp -r plain out').unresolved).toBeUndefined();
  });

  it('do not enter a .git folder, whose name is enough', () => {
    const s = scan('cp -r repo out');
    expect(s.unresolved).toBeUndefined();
    expect(unnamed(s)).toEqual([`${project}/out/.git`, `${project}/out/repo/.git`]);
  });

  it('too large to read whole: the copy is unresolved, with the reason named', () => {
    const s = scan('cp -r huge out');
    expect(s.unresolved?.word).toBe('huge');
    expect(s.unresolved?.reason).toContain('holds more than 10000 files and folders');
  });
});

describe('links', () => {
  it("take a relative target from the link's folder, as the kernel does", () => {
    expect(links(scan('ln -s ../x a/b/l')).sort()).toEqual([`${project}/a/b/x`, `${project}/a/x`]);
    expect(links(scan('ln -s ../../.. a/b/l'))).toContain(join(project, '..'));
    expect(links(scan('ln -s -t a/b ../x'))).toEqual([`${project}/a/x`]);
    expect(links(scan('ln -s /etc'))).toEqual(['/etc']);
  });

  it('take ln -r and a hard link from the working directory', () => {
    expect(links(scan('ln -sr x a/b/l'))).toEqual([`${project}/x`]);
    expect(links(scan('ln ../secret.txt s'))).toEqual([join(project, '../secret.txt')]);
  });
});
