import { isAbsolute, resolve } from 'node:path';
import { applyEdits, type FileEdit } from '../../shared/request-picture/file-edits';
import {
  countOps,
  diffLines,
  splitLines,
  unifiedHunks,
} from '../../shared/request-picture/line-diff';
import { maskSecrets } from '../../shared/request-picture/mask-secrets';
import { splitPatch } from '../../shared/request-picture/patch-files';
import type { FileChangePicture } from '../../shared/request-picture/picture-schema';
import type { ClosedCheck } from './closed-paths';
import { isBinary, readBounded } from './read-bounded';

/** The limits of one file's picture: what is read, and how much diff is kept. */
export interface FileLimits {
  /** The largest file (on disk, or as written) that is diffed. */
  maxFileBytes: number;
  /** The most diff text kept; the rest is cut, and the picture says so. */
  maxDiffChars: number;
}

export const FILE_LIMITS: FileLimits = { maxFileBytes: 1_000_000, maxDiffChars: 64_000 };

/** Every file a file tool call writes: one for Write/Edit/MultiEdit, one per file of a patch. */
export async function filePictures(
  edit: FileEdit,
  cwd: string | undefined,
  limits: FileLimits = FILE_LIMITS,
  diskClosed?: string,
  closed?: ClosedCheck,
): Promise<FileChangePicture[]> {
  if (edit.kind === 'patch') return patchPictures(edit.patch, cwd, limits);
  return [await filePicture(edit, cwd, limits, diskClosed, closed)];
}

/**
 * The diff one file tool call makes: the file it names (and only that file, resolved
 * against the call's directory as the tool does) read from disk, the edits applied, and
 * the two compared (a patch tool's own patch: patchPictures). Secrets are masked in what
 * is kept; a cut or a file left out says so.
 */
export async function filePicture(
  edit: Exclude<FileEdit, { kind: 'patch' }>,
  cwd: string | undefined,
  limits: FileLimits = FILE_LIMITS,
  diskClosed?: string,
  closed?: ClosedCheck,
): Promise<FileChangePicture> {
  if (diskClosed !== undefined) return callOnlyPicture(edit, cwd, limits, diskClosed);
  const path = isAbsolute(edit.path) || cwd === undefined ? edit.path : resolve(cwd, edit.path);
  const base = { path };
  if (edit.kind === 'write' && edit.content.length > limits.maxFileBytes)
    return {
      ...base,
      kind: 'modify',
      added: lineCount(edit.content),
      removed: 0,
      omitted: `the written content is too large to diff (${edit.content.length} characters); not shown`,
    };
  if (edit.kind === 'write' && isBinary(Buffer.from(edit.content.slice(0, 8000))))
    return { ...base, kind: 'modify', added: 0, removed: 0, omitted: 'binary content: not shown' };
  if (!isAbsolute(path))
    return {
      ...base,
      kind: 'modify',
      added: 0,
      removed: 0,
      omitted: 'no directory to find the file in',
    };
  // Whatever the classifier said: a path that is (or links to) a closed file is not read.
  const why = await closed?.(path);
  if (why !== undefined) return callOnlyPicture(edit, cwd, limits, why);
  const read = await readBounded(path, limits.maxFileBytes);
  if (read.kind === 'left-out') {
    const stats =
      edit.kind === 'write'
        ? { added: lineCount(edit.content), removed: 0 }
        : { added: 0, removed: 0 };
    return { ...base, kind: 'modify', ...stats, omitted: `the file on disk is ${read.why}` };
  }
  const before = read.kind === 'text' ? read.text : '';
  const kind = read.kind === 'absent' ? 'create' : 'modify';
  const after = edit.kind === 'write' ? { text: edit.content } : applyEdits(before, edit.edits);
  if ('error' in after)
    return { ...base, kind, added: 0, removed: 0, omitted: `${after.error}: the tool would fail` };
  const ops = diffLines(splitLines(before), splitLines(after.text));
  const { added, removed } = countOps(ops);
  const header = `--- ${kind === 'create' ? '/dev/null' : `a${path}`}\n+++ b${path}\n`;
  return { ...base, kind, added, removed, ...bounded(header + unifiedHunks(ops), limits) };
}

/**
 * The picture of a call whose file must not be read: only what the call carries, the
 * written text or each edit's old and new strings, diffed against each other.
 */
function callOnlyPicture(
  edit: Exclude<FileEdit, { kind: 'patch' }>,
  cwd: string | undefined,
  limits: FileLimits,
  why: string,
): FileChangePicture {
  const path = isAbsolute(edit.path) || cwd === undefined ? edit.path : resolve(cwd, edit.path);
  const omitted = `the file on disk is not read (${why}): only what the call writes is shown`;
  if (edit.kind === 'write' && edit.content.length > limits.maxFileBytes)
    return { path, kind: 'modify', added: lineCount(edit.content), removed: 0, omitted };
  const pairs =
    edit.kind === 'write'
      ? [{ old: '', new: edit.content }]
      : edit.edits.map((e) => ({ old: e.old, new: e.new }));
  const ops = pairs.flatMap((e) => diffLines(splitLines(e.old), splitLines(e.new)));
  const { added, removed } = countOps(ops);
  const shown = bounded(`+++ b${path}\n${unifiedHunks(ops)}`, limits);
  return {
    path,
    kind: 'modify',
    added,
    removed,
    diff: shown.diff,
    omitted: shown.omitted ? `${omitted}; ${shown.omitted}` : omitted,
  };
}

/**
 * A patch's pictures, one per file it changes (a patch of one unnamed part stays one
 * `(patch)` picture): each file's own lines with its `+A −R`, paths resolved against the
 * call's directory. The size limit is shared by all of them: once it is used up, the
 * remaining files are counted but not shown, and say so.
 */
export function patchPictures(
  patch: string,
  cwd: string | undefined,
  limits: FileLimits = FILE_LIMITS,
): FileChangePicture[] {
  let budget = limits.maxDiffChars;
  return splitPatch(patch).map((part) => {
    const path =
      part.path === undefined
        ? '(patch)'
        : isAbsolute(part.path) || cwd === undefined
          ? part.path
          : resolve(cwd, part.path);
    const base = {
      path,
      kind: part.kind === 'add' ? ('create' as const) : ('patch' as const),
      added: part.added,
      removed: part.removed,
    };
    if (budget <= 0)
      return { ...base, omitted: 'not shown: the size limit of the picture is reached' };
    const shown = bounded(part.text, { ...limits, maxDiffChars: budget });
    // A cut file has used the limit up: the next ones are counted, not shown in slivers.
    budget = shown.omitted ? 0 : budget - shown.diff.length;
    return { ...base, ...shown };
  });
}

/** The diff masked and cut at a line end within the limit; the cut says how much is missing. */
function bounded(diff: string, limits: FileLimits): { diff: string; omitted?: string } {
  const masked = maskSecrets(diff);
  if (masked.length <= limits.maxDiffChars) return { diff: masked };
  const cutAt = masked.lastIndexOf('\n', limits.maxDiffChars);
  const kept = masked.slice(0, cutAt > 0 ? cutAt : limits.maxDiffChars);
  const missing = lineCount(masked) - lineCount(kept);
  return { diff: kept, omitted: `the diff is cut: ${missing} more lines not shown` };
}

/** Lines as an editor counts them, without splitting a large text into strings. */
function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}
