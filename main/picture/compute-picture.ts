import { fileEditOf, type FileEdit } from '../../shared/request-picture/file-edits';
import { messagePreviewOf } from '../../shared/request-picture/message-preview';
import type {
  AppliedFilePicture,
  CommandPart,
  FileChangePicture,
  PushPicture,
  RequestPicture,
} from '../../shared/request-picture/picture-schema';
import type { PictureCall, PictureSource } from '../engine/picture/picture-source';
import { APPLIED_LIMITS, appliedPictures, type AppliedLimits } from './applied-files';
import { appliedRefs } from './applied-refs';
import { closedPaths } from './closed-paths';
import { FILE_LIMITS, filePictures, type FileLimits } from './file-picture';
import { placedCommands, type PlacedCommand } from './placed-commands';
import { pushesIn } from './push-commands';
import { fullPushDiff } from './push-diff';
import { pushPicture } from './push-picture';
import { GIT_LIMITS, type GitLimits } from './safe-git';

export interface PictureLimits {
  file: FileLimits;
  git: GitLimits;
  applied: AppliedLimits;
}

export interface PictureSourceOptions {
  limits?: PictureLimits;
  /**
   * Gatehouse's own folders (data directory, program, socket folder): no file under them is
   * read into a picture, whatever the call names (closed-paths.ts).
   */
  closedRoots?: readonly string[];
}

/**
 * The Node side of a request's picture (the engine's PictureSource): the diff of every file
 * a file tool writes, what a `git push` sends (from the directory the command runs git in),
 * the files a command applies, the message an action sends, and the command breakdown the
 * classifier made. Reads only: the files the call names, and repositories through
 * neutralised git.
 */
export function nodePictureSource(o: PictureSourceOptions = {}): PictureSource {
  const limits = o.limits ?? { file: FILE_LIMITS, git: GIT_LIMITS, applied: APPLIED_LIMITS };
  const closed = closedPaths(o.closedRoots ?? []);
  return {
    async compute(call: PictureCall): Promise<RequestPicture> {
      const omitted: string[] = [];
      const edit = fileEditOf(call.tool, call.input);
      const files: FileChangePicture[] = !edit
        ? []
        : call.oversize !== undefined
          ? [clippedPicture(edit, call.oversize)]
          : await filePictures(edit, call.cwd, limits.file, call.diskClosed, closed);
      let push: PushPicture | undefined;
      let applied: AppliedFilePicture[] = [];
      if (call.command !== undefined && call.oversize === undefined) {
        let placed: PlacedCommand[] | undefined;
        try {
          placed = await placedCommands(call.command, call.cwd);
        } catch (error) {
          omitted.push(`the command could not be parsed (${String(error)})`);
        }
        if (placed) {
          push = await pushOf(placed, limits.git, omitted);
          const refs = appliedRefs(placed);
          if (refs.length && call.diskClosed !== undefined)
            applied = refs.map((r) => ({
              by: r.by,
              path: r.path,
              omitted: `not read: the call names ${call.diskClosed}`,
            }));
          else if (refs.length) applied = await appliedPictures(refs, closed, limits.applied);
        }
      }
      const message = messagePreviewOf(call.tool, call.input);
      const commands: CommandPart[] = call.actions.map((a) => ({ ...a }));
      return {
        ...(files.length ? { files } : {}),
        ...(push ? { push } : {}),
        ...(applied.length ? { applied } : {}),
        ...(message ? { message } : {}),
        ...(commands.length ? { commands } : {}),
        ...(omitted.length ? { omitted } : {}),
      };
    },
    fullDiff: (push) => fullPushDiff(push),
  };
}

/** The first `git push` of the line, read from the directory git would run in. */
async function pushOf(
  placed: readonly PlacedCommand[],
  limits: GitLimits,
  omitted: string[],
): Promise<PushPicture | undefined> {
  const [first, ...more] = pushesIn(placed);
  if (!first) return undefined;
  if (more.length) omitted.push(`${more.length} more pushes in this command: not pictured`);
  if (first.unknownDir !== undefined) {
    omitted.push(`the push: its repository is not known (${first.unknownDir})`);
    return undefined;
  }
  if (first.cwd === undefined) {
    omitted.push('the push: no working directory to read it in');
    return undefined;
  }
  return pushPicture(first.cwd, first.target, limits);
}

/** A file call too large for Gatehouse: only its start arrived, so nothing of it is shown. */
function clippedPicture(edit: FileEdit, size: number): FileChangePicture {
  return {
    path: edit.kind === 'patch' ? '(patch)' : edit.path,
    kind: edit.kind === 'patch' ? 'patch' : 'modify',
    added: 0,
    removed: 0,
    omitted: `the call is too large for Gatehouse to read (${size} bytes): its content is not shown`,
  };
}
