import { lstat, readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { maskSecrets } from '../../shared/request-picture/mask-secrets';
import type { AppliedFilePicture } from '../../shared/request-picture/picture-schema';
import type { AppliedRef } from './applied-refs';
import type { ClosedCheck } from './closed-paths';
import { readBounded } from './read-bounded';

export interface AppliedLimits {
  /** The largest file read. */
  maxFileBytes: number;
  /** The most content kept over all the files of one call; the rest is cut, and says so. */
  maxTotalChars: number;
  /** The most files shown (a folder's files count one each). */
  maxFiles: number;
}

export const APPLIED_LIMITS: AppliedLimits = {
  maxFileBytes: 512_000,
  maxTotalChars: 64_000,
  maxFiles: 10,
};

/**
 * The content of the files a call's commands apply (applied-refs.ts), each read bounded (no
 * link followed, no FIFO opened), never one that is closed (Gatehouse's own files,
 * protected locations, secrets), secrets masked; a folder shows its matching files. Every
 * file left out or cut says why.
 */
export async function appliedPictures(
  refs: readonly AppliedRef[],
  closed: ClosedCheck,
  limits: AppliedLimits = APPLIED_LIMITS,
): Promise<AppliedFilePicture[]> {
  const out: AppliedFilePicture[] = [];
  let budget = limits.maxTotalChars;
  const defaultsFound = new Set<string>();
  const add = async (by: string, path: string): Promise<void> => {
    if (out.length >= limits.maxFiles) return;
    const picture = await readOne(by, path, closed, limits, budget);
    // A cut file has used the limit up: the next ones are named, not shown in slivers.
    budget = picture.omitted?.startsWith('cut') ? 0 : budget - (picture.content?.length ?? 0);
    out.push(picture);
  };
  for (const ref of refs) {
    if (out.length >= limits.maxFiles) {
      out.push({ by: ref.by, path: ref.path, omitted: `more than ${limits.maxFiles} files` });
      break;
    }
    const left = (why: string) => out.push({ by: ref.by, path: ref.path, omitted: why });
    if (ref.path === '-') left('read from standard input: not shown');
    else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref.path)) left('a URL: not fetched');
    else if (/[$`]/.test(ref.path) || /^~[^/]/.test(ref.path))
      left('its path is only known when the command runs');
    else if (ref.unknownDir !== undefined) left(`its folder is not known (${ref.unknownDir})`);
    else if (!isAbsolute(ref.path) && !ref.path.startsWith('~') && ref.cwd === undefined)
      left('no folder to find it in');
    else {
      // `~/x` as the shell expands it (a quoted one is not, but then it names a file below
      // the project's `~` folder, which is read under the same checks).
      const written =
        ref.path === '~' || ref.path.startsWith('~/')
          ? join(homedir(), ref.path.slice(1))
          : ref.path;
      const path = ref.cwd === undefined ? resolve(written) : resolve(ref.cwd, written);
      const key = `${ref.by}\n${ref.cwd ?? ''}`;
      if (ref.optional && defaultsFound.has(key)) continue;
      const info = await lstat(path).catch(() => undefined);
      if (ref.optional && info === undefined) continue;
      if (ref.optional) defaultsFound.add(key);
      if (info?.isDirectory() && ref.folder) {
        const why = await closed(path);
        if (why !== undefined) {
          left(`not read: ${why}`);
          continue;
        }
        const names = (await readdir(path).catch(() => [] as string[]))
          .filter((n) => ref.folder!.test(n))
          .sort();
        if (names.length === 0) left('a folder with none of the files it applies');
        for (const name of names) await add(ref.by, join(path, name));
      } else if (info?.isFile() && ref.fileNotShown !== undefined)
        out.push({ by: ref.by, path, omitted: ref.fileNotShown });
      else await add(ref.by, path);
    }
  }
  return out;
}

async function readOne(
  by: string,
  path: string,
  closed: ClosedCheck,
  limits: AppliedLimits,
  budget: number,
): Promise<AppliedFilePicture> {
  const why = await closed(path);
  if (why !== undefined) return { by, path, omitted: `not read: ${why}` };
  if (budget <= 0)
    return { by, path, omitted: 'not shown: the size limit of the picture is reached' };
  const read = await readBounded(path, limits.maxFileBytes);
  if (read.kind === 'absent') return { by, path, omitted: 'not there (yet)' };
  if (read.kind === 'left-out') return { by, path, omitted: read.why };
  const masked = maskSecrets(read.text);
  if (masked.length <= budget) return { by, path, content: masked };
  const cutAt = masked.lastIndexOf('\n', budget);
  const content = masked.slice(0, cutAt > 0 ? cutAt : budget);
  const missing = masked.slice(content.length).split('\n').length - 1;
  return { by, path, content, omitted: `cut: ${missing} more lines not shown` };
}
