import type { RequestRecord } from '../../shared/domain';
import type { RequestPicture } from '../../shared/request-picture/picture-schema';

/** At most this much of a request's picture (as JSON) travels to the hub. */
export const MAX_HUB_PICTURE_CHARS = 256 * 1024;

const LEFT_OUT = 'left out on the hub (the picture is too large); the machine’s dashboard shows it';

/**
 * A request as it is published, its picture bounded. The picture is the machine's own (built
 * by the daemon from the disk and read-only git, secrets masked, never taken from the agent),
 * so the hub never shows more than the machine's dashboard does; when it is too large, the
 * diffs and file contents are left out first, each saying so, and then the whole picture.
 */
export function forHub(request: RequestRecord): RequestRecord {
  const picture = request.picture;
  if (!picture || size(picture) <= MAX_HUB_PICTURE_CHARS) return request;
  const lean: RequestPicture = {
    ...picture,
    ...(picture.files
      ? {
          files: picture.files.map(({ diff: _diff, ...f }) => ({
            ...f,
            omitted: f.omitted
              ? `${f.omitted}; the diff is ${LEFT_OUT}`
              : `the diff is ${LEFT_OUT}`,
          })),
        }
      : {}),
    ...(picture.applied
      ? {
          applied: picture.applied.map(({ content: _content, ...a }) => ({
            ...a,
            omitted: `its content is ${LEFT_OUT}`,
          })),
        }
      : {}),
  };
  if (size(lean) <= MAX_HUB_PICTURE_CHARS) return { ...request, picture: lean };
  return { ...request, picture: { omitted: [`the picture is ${LEFT_OUT}`] } };
}

const size = (picture: RequestPicture): number => JSON.stringify(picture).length;
