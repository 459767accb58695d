import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The project's Markdown pages whose links must hold: the README, CONTRIBUTING.md, every page
 * under docs/, and the benchmarks page.
 */
export function docPages(root: string): string[] {
  const underDocs = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return underDocs(path);
      return e.name.endsWith('.md') ? [path] : [];
    });
  return [
    join(root, 'README.md'),
    join(root, 'CONTRIBUTING.md'),
    ...underDocs(join(root, 'docs')),
    join(root, 'bench/README.md'),
  ];
}

/** The page's text without fenced code blocks and code spans: links there are not links. */
function proseOf(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      lines.push('');
    } else if (opener) {
      fence = opener;
      lines.push('');
    } else lines.push(line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, ''));
  }
  return lines.join('\n');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page's headings produce, numbered as GitHub numbers repeated ones. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOfKeepingCode(markdown)) {
    const text = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (text === undefined) continue;
    const slug = headingSlug(text);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The lines outside fenced code blocks, code spans kept (a heading's code is its text). */
function proseOfKeepingCode(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
    } else if (opener) fence = opener;
    else lines.push(line);
  }
  return lines;
}

/** The link and image targets of a page: Markdown `[..](..)`, `![..](..)`, HTML src and href. */
export function linkTargets(markdown: string): string[] {
  const prose = proseOf(markdown);
  const markdownLinks = [
    ...prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
  ];
  const htmlLinks = [...prose.matchAll(/<(?:img|a)\b[^>]*?\b(?:src|href)="([^"]+)"/gi)];
  return [...markdownLinks, ...htmlLinks].map((m) => m[1]!);
}

/**
 * What is broken in these pages: each relative link or image whose file does not exist, and
 * each `#anchor` (in the page itself or in another Markdown page) that no heading produces.
 * Links with a scheme (https:, mailto:) are not checked. Problems read `page: target (why)`.
 */
export function brokenLinks(pages: string[], root: string): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (page: string) => {
    let found = anchorsOf.get(page);
    if (!found) anchorsOf.set(page, (found = headingAnchors(readFileSync(page, 'utf8'))));
    return found;
  };
  const problems: string[] = [];
  for (const page of pages) {
    const name = relative(root, page);
    if (!existsSync(page)) {
      problems.push(`${name}: the page itself is missing`);
      continue;
    }
    for (const target of linkTargets(readFileSync(page, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#', 2);
      const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) {
        problems.push(`${name}: ${target} (no such file)`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(file).isDirectory() || !file.endsWith('.md')) {
        problems.push(`${name}: ${target} (an anchor into something that is not a page)`);
      } else if (!anchors(file).has(decodeURIComponent(anchor).toLowerCase())) {
        problems.push(`${name}: ${target} (no heading makes #${anchor})`);
      }
    }
  }
  return problems;
}

/** A word of a code span that starts in one of the project's own folders. */
const REPO_PATH =
  /(?<![\w./$~-])(?:main|shared|clients|renderer|preload|scripts|bench|test|docs|assets)\/[^\s`'"(),;:]*/g;

/**
 * The repository paths a page names in code spans (`main/server/ndjson.ts`, `test/e2e/`), as
 * written: patterns with a placeholder (`<agent>`, `*`, `…`, `{a,b}`) are left out.
 */
export function namedPaths(markdown: string): string[] {
  const paths: string[] = [];
  for (const [, span] of markdown.matchAll(/`([^`\n]+)`/g)) {
    for (const [word] of span!.matchAll(REPO_PATH)) {
      const path = word.replace(/\.+$/, '');
      if (!/[<>*…{}[\]]/.test(path)) paths.push(path);
    }
  }
  return paths;
}
