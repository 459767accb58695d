import type { AdminHandlers } from '../kernel/admin-handlers';
import type { PictureSource } from './picture-source';
import type { PicturesStore } from './pictures-store';

export interface PictureAdminDeps {
  store: PicturesStore;
  /** Absent when requests carry no pictures (a test harness without the Node side). */
  source?: PictureSource;
  /** Throws when the request does not exist. */
  assertRequest: (requestId: string) => void;
}

/**
 * The admin method of request pictures: the full diff of what a request's push sends, one
 * click away. Computed when asked (the stored picture keeps the diffstat only), from the
 * commits the picture recorded, with the same read-only, neutralised git.
 */
export function pictureAdmin(d: PictureAdminDeps) {
  return {
    'request.diff': async (p) => {
      d.assertRequest(p.requestId);
      const push = d.store.getPicture(p.requestId)?.push;
      if (!push) return { omitted: 'this request has no push to show the diff of' };
      if (!d.source) return { omitted: 'pictures are not computed here' };
      return d.source.fullDiff(push);
    },
  } satisfies AdminHandlers<'request.diff'>;
}
