import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { repositoryTop } from './git-hooks-path';
import { readSmallText } from './read-small-text';

/** A `.gitignore` line read: the name glob, where it may match, and whether only folders. */
interface IgnoreLine {
  name: RegExp;
  /** `/name`: only a name in the `.gitignore`'s own folder. */
  anchored: boolean;
  /** `name/`: only a folder of that name. */
  folderOnly: boolean;
}

/** Files that can bring back what `.gitignore` keeps out, for rg (`!.env` in `.ignore`). */
const OVERRIDING_IGNORE_FILES = ['.ignore', '.rgignore'];

/**
 * Whether `.gitignore` surely keeps `file` out of a search of the folder `searched` that
 * honours it (rg, ag, `git grep --untracked`): the file is inside a repository (a folder
 * above it holds `.git`), and a line of a `.gitignore` between the repository's root and the
 * file's folder, or of `.git/info/exclude`, names the file or a folder it is in below
 * `searched`.
 *
 * Only lines read the same way by git, rg and ag count: a name glob (`*`, `?`), with a leading
 * `/` (that folder only) or a trailing `/` (folders only). A line with a `/` inside, `**`, a
 * set, or an escape counts for nothing, and so does every line where any file read holds a `!`
 * line (which brings a name back) or a folder on the way holds an `.ignore` or `.rgignore`
 * (which can): the answer errs towards "read", never towards "kept out". The global excludes
 * file is not read (what only it keeps out counts as read). `folder`: `file` is a folder (a
 * line `name/` names it too).
 */
export function surelyIgnored(
  file: string,
  searched?: string,
  o: { folder?: boolean; reads?: IgnoreReads } = {},
): boolean {
  const text = o.reads?.text ?? readText;
  const exists = o.reads?.exists ?? existsSync;
  const root = repositoryTop(dirname(file));
  if (root === undefined) return false;
  const parts = relative(root, file).split(sep);
  // rg reads a folder it is given even where .gitignore names it (`rg --hidden KEY secret/`
  // with `secret/` ignored reads secret/.env): only names below the searched folder count.
  const under = searched === undefined ? '' : relative(root, searched);
  const first = under === '' || under.startsWith('..') ? 0 : under.split(sep).length;
  // The folders from the root down to the file's own, each with the names below it.
  const sources: { text: string; below: string[] }[] = [];
  const exclude = join(root, '.git', 'info', 'exclude');
  const excludeText = text(exclude);
  if (excludeText !== undefined) sources.push({ text: excludeText, below: parts });
  for (let depth = 0; depth < parts.length; depth++) {
    const folder = join(root, ...parts.slice(0, depth));
    if (OVERRIDING_IGNORE_FILES.some((name) => exists(join(folder, name)))) return false;
    const ignore = text(join(folder, '.gitignore'));
    if (ignore !== undefined) sources.push({ text: ignore, below: parts.slice(depth) });
  }
  const read = sources.map((s) => ({ lines: ignoreLines(s.text), below: s.below }));
  if (read.some((r) => r.lines === undefined)) return false;
  return read.some(({ lines, below }) =>
    lines!.some((line) =>
      below.some(
        (name, i) =>
          parts.length - below.length + i >= first &&
          (!line.anchored || i === 0) &&
          (!line.folderOnly || i < below.length - 1 || o.folder === true) &&
          line.name.test(name),
      ),
    ),
  );
}

const readText = (path: string): string | undefined => readSmallText(path);

/** How {@link surelyIgnored} reads ignore files; one walk keeps what it read (it is synchronous). */
export interface IgnoreReads {
  text(path: string): string | undefined;
  exists(path: string): boolean;
}

/** Ignore-file reads one walk of a folder made, kept so it can tell whether they still hold. */
export interface RememberedIgnoreReads extends IgnoreReads {
  /** Whether every ignore file read reads the same again, and every one looked for is still there or not. */
  unchanged(): boolean;
}

/** Ignore-file reads remembered for the length of one walk of a folder. */
export function rememberedIgnoreReads(): RememberedIgnoreReads {
  const texts = new Map<string, string | undefined>();
  const found = new Map<string, boolean>();
  return {
    text: (path) => {
      if (!texts.has(path)) texts.set(path, readText(path));
      return texts.get(path);
    },
    exists: (path) => {
      let there = found.get(path);
      if (there === undefined) found.set(path, (there = existsSync(path)));
      return there;
    },
    unchanged: () =>
      [...found].every(([path, there]) => existsSync(path) === there) &&
      [...texts].every(([path, text]) => readText(path) === text),
  };
}

/** The lines of one ignore file this check reads; undefined when one of them negates. */
function ignoreLines(text: string): IgnoreLine[] | undefined {
  const out: IgnoreLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.startsWith('!')) return undefined;
    // git drops trailing spaces unless escaped; an escape is not read here at all.
    const line = raw.replace(/[ \t]+$/, '');
    if (!line || line.startsWith('#') || /[\\[]|\*\*/.test(line)) continue;
    const anchored = line.startsWith('/');
    const folderOnly = line.endsWith('/');
    const body = line.slice(anchored ? 1 : 0, folderOnly ? -1 : undefined);
    if (!body || body.includes('/')) continue;
    const source = body
      .split('')
      .map((c) => (c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^${}()|]/g, '\\$&')))
      .join('');
    out.push({ name: new RegExp(`^${source}$`, 'su'), anchored, folderOnly });
  }
  return out;
}
