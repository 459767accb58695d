import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/daemon';

/**
 * Where tests live, kept true. A unit test sits in test/unit/ under the path of the folder it
 * tests (test/unit/main/server/ tests main/server/), so a folder there that names no source
 * folder is a test filed in the wrong place, or left behind when its source moved. Lint tests
 * (rules spanning the project) live in test/unit/lint/. Integration tests sit in a folder named
 * for what they drive (agents/, socket/, hooks/, cli/…), never loose. And every test path the
 * project's documents and comments cite exists, so a move cannot leave a citation dangling.
 */

/** The folders test/unit/ mirrors (docs/: tests of the documents, such as their links). */
const SOURCE_ROOTS = ['main', 'shared', 'clients', 'renderer', 'preload', 'scripts', 'docs'];

/**
 * Where citations of test paths are looked for: everything but node_modules, builds and
 * fixtures (data: a corpus of shell commands names test files as arguments, not citations).
 */
const CITING = ['README.md', 'CONTRIBUTING.md', 'bench', 'test', ...SOURCE_ROOTS];
const NOT_CITING = new Set(['node_modules', 'dist', 'fixtures']);
const TEXT_FILE = /\.(md|ts|tsx|mts|mjs|cjs|js|json|yml|yaml|txt|sh)$/;
const TEST_PATH = /\btest\/(?:unit|integration|e2e)\/[\w./-]*[\w/]/g;

const isDir = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/** Every file under `dir` (relative to `root`), skipping folders named in `skip`. */
function filesUnder(root: string, dir: string, skip: ReadonlySet<string>): string[] {
  const path = join(root, dir);
  if (!existsSync(path)) return [];
  if (!isDir(path)) return [dir];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory() && skip.has(entry.name)) return [];
    return filesUnder(root, join(dir, entry.name), skip);
  });
}

/** Files at the root of test/unit/ or test/integration/ (each belongs in a folder). */
function looseFiles(root: string): string[] {
  return [join('test', 'unit'), join('test', 'integration')].flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => !entry.isDirectory())
      .map((entry) => join(dir, entry.name)),
  );
}

/** Folders under test/unit/ (bar lint/) whose path names no source folder. */
function foldersWithoutSource(root: string): string[] {
  const unit = join(root, 'test', 'unit');
  const walk = (rel: string): string[] => {
    const [top] = rel.split('/');
    if (!SOURCE_ROOTS.includes(top!) || !isDir(join(root, rel))) {
      // A folder git left empty (it keeps no folders) holds no test to misplace.
      return filesUnder(unit, rel, new Set()).length > 0 ? [rel] : [];
    }
    return readdirSync(join(unit, rel), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => walk(`${rel}/${entry.name}`));
  };
  return readdirSync(unit, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'lint')
    .flatMap((entry) => walk(entry.name));
}

/** `file: cited` for each cited test path that does not exist, with where a file so named is. */
function danglingCitations(root: string): string[] {
  const files = CITING.flatMap((dir) => filesUnder(root, dir, NOT_CITING));
  const testFiles = filesUnder(root, 'test', new Set(['node_modules']));
  return files
    .filter((file) => TEXT_FILE.test(file))
    .flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(TEST_PATH)]
        .map(([cited]) => cited)
        .filter((cited) => !existsSync(join(root, cited)))
        .map((cited) => {
          const now = testFiles.filter((f) => basename(f) === basename(cited));
          return `${file}: ${cited}${now.length > 0 ? ` (now ${now.join(' or ')}?)` : ''}`;
        }),
    );
}

describe('the tests mirror the source', () => {
  it('has no file loose at the root of test/unit/ or test/integration/', () => {
    expect(looseFiles(ROOT)).toEqual([]);
  });

  it('has under test/unit/ (bar lint/) only folders that name a source folder', () => {
    expect(foldersWithoutSource(ROOT)).toEqual([]);
  });

  it('says in test/README.md what each folder of test/integration/ drives', () => {
    const readme = readFileSync(join(ROOT, 'test', 'README.md'), 'utf8');
    const groups = readdirSync(join(ROOT, 'test', 'integration'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const row = (group: string): RegExp => new RegExp(`^\\| \`${group}/\` +\\|`, 'm');
    expect(groups.filter((group) => !row(group).test(readme))).toEqual([]);
  });

  it('cites only test paths that exist, in documents, comments and tests', () => {
    expect(danglingCitations(ROOT)).toEqual([]);
  });
});

describe('the layout checks catch what they are for', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-test-layout-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text = ''): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  // Paths are joined from parts so the citation check of the real project does not read them.
  const unit = (...parts: string[]): string => join('test', 'unit', ...parts);
  const integration = (...parts: string[]): string => join('test', 'integration', ...parts);
  write(join('main', 'server', 'rpc.ts'));
  write(join('shared', 'tools', 'x.ts'));
  write(unit('main', 'server', 'rpc.test.ts'));
  write(unit('lint', 'rule.test.ts'));
  write(integration('socket', 'abuse.test.ts'));

  it('passes a layout that mirrors the source', () => {
    expect(looseFiles(root)).toEqual([]);
    expect(foldersWithoutSource(root)).toEqual([]);
  });

  it('names a loose file, a folder of no source and a sub-folder of no source', () => {
    mkdirSync(join(root, unit('left', 'empty')), { recursive: true });
    write(unit('server.test.ts'));
    write(integration('flat.test.ts'));
    write(unit('hooks', 'bash.test.ts'));
    write(unit('main', 'gone', 'old.test.ts'));
    write(unit('shared', 'tools', 'commands', 'vet.test.ts'));
    expect(looseFiles(root).sort()).toEqual([integration('flat.test.ts'), unit('server.test.ts')]);
    expect(foldersWithoutSource(root).sort()).toEqual([
      'hooks',
      'main/gone',
      'shared/tools/commands',
    ]);
  });

  it('names a citation whose file moved, and where a file of that name is now', () => {
    const cited = ['test', 'unit', 'hooks', 'rpc.test.ts'].join('/');
    write(join('docs', 'guide.md'), `See \`${cited}\` and ${unit('main', 'server')}/.\n`);
    expect(danglingCitations(root)).toEqual([
      `${join('docs', 'guide.md')}: ${cited} (now ${unit('main', 'server', 'rpc.test.ts')}?)`,
    ]);
  });
});
