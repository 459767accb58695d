import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The source folders whose comments are read, and the file kinds that have comments. */
const SOURCE_FOLDERS = [
  'main',
  'shared',
  'clients',
  'renderer',
  'preload',
  'scripts',
  'bench',
  'test',
];
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|sh)$/;
/**
 * Installed agent CLIs and recorded payloads: other people's text, not the project's; build
 * output (dist/, ignored by git) is made from the sources checked here.
 */
const NOT_OURS = new Set(['node_modules', 'agents', 'fixtures', 'dist']);

/** Every source file of the project, relative to the root. */
export function sourceFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) return NOT_OURS.has(e.name) ? [] : walk(path);
      return SOURCE_FILE.test(e.name) ? [path] : [];
    });
  return SOURCE_FOLDERS.filter((d) => existsSync(join(root, d))).flatMap(walk);
}

/** A line that is (part of) a comment: `//`, a block comment's lines, a shell `#`. */
const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#(?!!))/;

/**
 * What is wrong with the citations in a file's comments: the protocol by a name it lacks (it is
 * docs/protocol.md), an issue number (the issues are not in the repository: say the why), or
 * a `docs/….md` that does not exist. Problems read `file:line: why`.
 */
export function citationProblems(
  file: string,
  text: string,
  exists: (path: string) => boolean,
): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!COMMENT_LINE.test(line)) return;
    const at = `${file}:${i + 1}`;
    if (/\bPROTOCOL\.md\b/.test(line)) problems.push(`${at}: cites PROTOCOL.md (docs/protocol.md)`);
    if (/\bissues? #?\d+/i.test(line)) problems.push(`${at}: cites an issue number`);
    for (const [doc] of line.matchAll(/\bdocs\/[\w./-]*\.md\b/g)) {
      if (!exists(doc)) problems.push(`${at}: cites ${doc}, which does not exist`);
    }
  });
  return problems;
}
