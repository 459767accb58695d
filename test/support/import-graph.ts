import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One import in a source file: where it points and how it is written. */
export interface ImportEdge {
  /** The imported file, relative to the root (`main/core.ts`). */
  to: string;
  /** `import('…')` rather than a static import, export-from or `import type`. */
  dynamic: boolean;
}

/** Every project source file (relative path) and the project files it imports. */
export type ImportGraph = Map<string, ImportEdge[]>;

const SOURCE = /\.tsx?$/;

function sourceFiles(root: string, dir: string, out: string[]): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return out;
  for (const name of readdirSync(abs)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) sourceFiles(root, path, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * The import graph of the given folders, read with TypeScript's own pre-processor: static
 * imports, `import type` (a cycle of types is still two files that cannot be understood one
 * without the other), export-from and `import()` with a literal specifier. Package imports
 * are left out; a relative import that names no project file is reported as `unresolved`.
 */
export function importGraph(
  root: string,
  folders: readonly string[],
): { graph: ImportGraph; unresolved: string[] } {
  const files = folders.flatMap((f) => sourceFiles(root, f, []));
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  const unresolved: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const edges: ImportEdge[] = [];
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const base = relative(root, resolve(root, dirname(file), ref.fileName));
      const to = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((c) =>
        known.has(c),
      );
      if (to) edges.push({ to, dynamic: isDynamic(text, ref.pos) });
      // Stylesheets and other assets the bundler handles are not source.
      else if (!/\.(css|svg|png)$/.test(base)) unresolved.push(`${file} -> ${ref.fileName}`);
    }
    graph.set(file, edges);
  }
  return { graph, unresolved };
}

/** Whether the specifier whose quote is at `pos` is the argument of `import(…)`. */
function isDynamic(text: string, pos: number): boolean {
  return /\bimport\s*\(\s*$/.test(text.slice(Math.max(0, pos - 40), pos));
}

/**
 * The import cycles of a graph: its strongly connected components of more than one file
 * (Tarjan), each given as one concrete loop through it so that the message shows the way
 * round. A file importing itself counts too.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = graph.get(v)?.some((e) => e.to === v) ?? false;
      if (component.length > 1 || selfLoop) components.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components.map((c) => loopThrough(graph, new Set(c), [...c].sort()[0]!));
}

/** A shortest loop from `start` back to itself inside one component (breadth first). */
function loopThrough(graph: ImportGraph, component: Set<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const { to } of graph.get(v) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, v);
        queue.push(to);
      }
    }
  }
  return [start];
}

/**
 * The graph of folders one level down (`main/notify`, `clients/sdk`): an edge for every file
 * of one importing a file of another. Files directly in a top folder (`main/core.ts`) are
 * its composition and are left out: they sit above their sub-folders, not beside them.
 */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const folderOf = (file: string): string | undefined => {
    const parts = file.split('/');
    return parts.length > 2 ? `${parts[0]}/${parts[1]}` : undefined;
  };
  const folders: ImportGraph = new Map();
  for (const [file, edges] of graph) {
    const from = folderOf(file);
    if (!from) continue;
    const out = folders.get(from) ?? [];
    folders.set(from, out);
    for (const e of edges) {
      const to = folderOf(e.to);
      if (to && to !== from && !out.some((o) => o.to === to)) out.push({ to, dynamic: false });
    }
  }
  return folders;
}
