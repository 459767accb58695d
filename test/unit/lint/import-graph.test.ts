import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/daemon';
import {
  folderGraph,
  importCycles,
  importGraph,
  type ImportGraph,
} from '../../support/import-graph';

/**
 * The whole source's import graph (type imports and `import()` included), checked for what
 * lint cannot see one file at a time: cycles, folders that import each other, and the
 * process boundaries crossed by any kind of import. It also holds the rule that SQL lives
 * in the store.
 */
const FOLDERS = ['main', 'shared', 'clients', 'preload', 'renderer'];

let graph: ImportGraph;
let unresolved: string[];
beforeAll(() => {
  ({ graph, unresolved } = importGraph(ROOT, FOLDERS));
});

const edgesBetween = (from: string, to: string): string[] =>
  [...graph]
    .filter(([file]) => file.startsWith(`${from}/`))
    .flatMap(([file, edges]) =>
      edges.filter((e) => e.to.startsWith(`${to}/`)).map((e) => `${file} -> ${e.to}`),
    );

describe('the import graph', () => {
  it('is read whole: every relative import names a source file', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('main/core.ts')?.some((e) => e.to === 'main/engine/engine.ts')).toBe(true);
    expect(unresolved).toEqual([]);
  });

  it('has no cycle between files', () => {
    const cycles = importCycles(graph).map((loop) => loop.join(' -> '));
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('has no two folders importing each other', () => {
    const cycles = importCycles(folderGraph(graph)).map((loop) => {
      const steps = loop.slice(1).map((to, i) => edgesBetween(loop[i]!, to)[0]);
      return `${loop.join(' -> ')} (${steps.join('; ')})`;
    });
    expect(cycles, `folder cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('keeps the process boundaries, dynamic imports included', () => {
    // [importing folder, folders it must not reach]: the rules of eslint.config.js, over
    // every edge at once, so an `import()` or an `import type` cannot slip past them.
    const forbidden: [string, string[]][] = [
      // The CLI runs the daemon from main/'s built bundle (clients/cli/load-main.ts), not
      // its source.
      ['main/', ['clients/', 'renderer/', 'preload/']],
      ['clients/', ['main/', 'renderer/', 'preload/']],
      ['shared/', ['main/', 'clients/', 'renderer/', 'preload/']],
      ['renderer/', ['main/', 'clients/', 'preload/']],
      [
        'main/engine/',
        ['main/store/', 'main/server/', 'main/notify/', 'main/shell/', 'main/remote/'],
      ],
    ];
    const crossings = [...graph].flatMap(([file, edges]) =>
      forbidden
        .filter(([from]) => file.startsWith(from))
        .flatMap(([, banned]) =>
          edges
            .filter((e) => banned.some((b) => e.to.startsWith(b)))
            .map((e) => `${file} -> ${e.to}${e.dynamic ? ' (import())' : ''}`),
        ),
    );
    expect(crossings, crossings.join('\n')).toEqual([]);
  });

  it('keeps SQL in the store folders', () => {
    const outside = [...graph.keys()].filter((f) => !/^main\/(.+\/)?store\//.test(f));
    const found = outside.flatMap((file) => sqlIn(file));
    expect(found, found.join('\n')).toEqual([]);
  });
});

describe('what the checks catch', () => {
  it('finds a cycle and names the way round', () => {
    const g: ImportGraph = new Map([
      ['a.ts', [{ to: 'b.ts', dynamic: false }]],
      ['b.ts', [{ to: 'c.ts', dynamic: true }]],
      ['c.ts', [{ to: 'a.ts', dynamic: false }]],
      ['d.ts', [{ to: 'a.ts', dynamic: false }]],
    ]);
    expect(importCycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    expect(importCycles(new Map([['a.ts', [{ to: 'a.ts', dynamic: false }]]]))).toEqual([
      ['a.ts', 'a.ts'],
    ]);
  });

  it('finds two folders importing each other through different files', () => {
    const g: ImportGraph = new Map([
      ['main/notify/a.ts', [{ to: 'main/remote/b.ts', dynamic: false }]],
      ['main/remote/c.ts', [{ to: 'main/notify/d.ts', dynamic: false }]],
      ['main/core.ts', [{ to: 'main/notify/a.ts', dynamic: false }]],
    ]);
    expect(importCycles(g)).toEqual([]);
    expect(importCycles(folderGraph(g))).toEqual([['main/notify', 'main/remote', 'main/notify']]);
  });

  it('reads type imports, export-from and import() as edges', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-graph-'));
    try {
      mkdirSync(join(dir, 'src', 'b'), { recursive: true });
      writeFileSync(
        join(dir, 'src', 'a.ts'),
        "import type { B } from './b';\nexport { c } from './c';\nimport x from 'zod';\n" +
          "export const d = () => import('./d');\nimport './style.css';\n",
      );
      for (const f of ['b/index.ts', 'c.ts', 'd.tsx'])
        writeFileSync(join(dir, 'src', f), 'export const v = 1;\n');
      const { graph: g, unresolved: missing } = importGraph(dir, ['src']);
      expect(g.get('src/a.ts')).toEqual([
        { to: 'src/b/index.ts', dynamic: false },
        { to: 'src/c.ts', dynamic: false },
        { to: 'src/d.tsx', dynamic: true },
      ]);
      expect(missing).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds SQL in a source text', () => {
    expect(sqlInText("db.prepare('SELECT 1')")).toEqual(['prepare(…)']);
    expect(sqlInText('db.exec(`CREATE TABLE t (x)`)')).toEqual(['exec(…)', 'CREATE TABLE t (x)']);
    expect(sqlInText("const q = 'DELETE FROM used_link_nonces WHERE x = ?';")).toEqual([
      'DELETE FROM used_link_nonces WHERE x = ?',
    ]);
    expect(sqlInText("/x/.exec(line); const s = 'select a file';")).toEqual([]);
  });
});

const SQL_STATEMENT =
  /^\s*(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|UNIQUE)|DROP\s|ALTER\s+TABLE|PRAGMA\s|WITH\s+\w+\s+AS)/s;

/** Words without which a file holds no SQL: most files are not parsed at all. */
const SQL_HINT =
  /prepare\(|pragma\(|exec\(|SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH/;

function sqlIn(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (!SQL_HINT.test(text)) return [];
  return sqlInText(text).map((s) => `${file}: ${s}`);
}

/**
 * SQL in a file: a `prepare`, `pragma` or `exec` call given a string (a database's, not a
 * RegExp's `exec(variable)`), or a string literal that is an SQL statement.
 */
function sqlInText(text: string): string[] {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const isText = (n: ts.Node | undefined): boolean =>
    n !== undefined &&
    (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n));
  const visit = (n: ts.Node): void => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      ['prepare', 'pragma', 'exec'].includes(n.expression.name.text) &&
      isText(n.arguments[0])
    )
      found.push(`${n.expression.name.text}(…)`);
    if (
      (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) &&
      SQL_STATEMENT.test(n.text)
    )
      found.push(n.text);
    if (ts.isTemplateHead(n) && SQL_STATEMENT.test(n.text)) found.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}
