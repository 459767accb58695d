import { fileEditOf } from '../../shared/request-picture/file-edits';
import type {
  CommandPart,
  FileChangePicture,
  RequestPicture,
} from '../../shared/request-picture/picture-schema';
import type { PictureCall, PictureSource } from '../engine/picture/picture-source';
import { FILE_LIMITS, filePicture, type FileLimits } from './file-picture';
import type { FileEdit } from '../../shared/request-picture/file-edits';
import { pushPicture, pushTargetOf } from './push-picture';
import { GIT_LIMITS, type GitLimits } from './safe-git';

export interface PictureLimits {
  file: FileLimits;
  git: GitLimits;
}

/**
 * The Node side of a request's picture (the engine's PictureSource): the file diff of a file
 * tool, what a `git push` sends, and the command breakdown the classifier made. Reads only:
 * the one file the call writes, and the repository through neutralised git.
 */
export function nodePictureSource(
  limits: PictureLimits = { file: FILE_LIMITS, git: GIT_LIMITS },
): PictureSource {
  return {
    async compute(call: PictureCall): Promise<RequestPicture> {
      const omitted: string[] = [];
      const files: FileChangePicture[] = [];
      const edit = fileEditOf(call.tool, call.input);
      if (edit && call.oversize !== undefined) files.push(clippedPicture(edit, call.oversize));
      else if (edit) files.push(await filePicture(edit, call.cwd, limits.file, call.diskClosed));
      const pushes = call.actions.filter((a) => a.action === 'git_push');
      let push;
      if (pushes.length && call.command !== undefined) {
        if (call.cwd === undefined) omitted.push('the push: no working directory to read it in');
        else push = await pushPicture(call.cwd, pushTargetOf(call.command), limits.git);
      }
      const commands: CommandPart[] = call.actions.map((a) => ({ ...a }));
      return {
        ...(files.length ? { files } : {}),
        ...(push ? { push } : {}),
        ...(commands.length ? { commands } : {}),
        ...(omitted.length ? { omitted } : {}),
      };
    },
  };
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
