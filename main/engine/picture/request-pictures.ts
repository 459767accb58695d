import type { RequestPicture } from '../../../shared/request-picture/picture-schema';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { PictureCall, PictureSource } from './picture-source';
import type { PicturesStore } from './pictures-store';

export interface RequestPicturesDeps {
  store: PicturesStore;
  work: UnitOfWork;
  source: PictureSource;
  /** Where a picture that could not be computed is reported (it never reaches the agent). */
  log?: (message: string) => void;
}

/** The request a picture belongs to. */
export interface PictureOwner {
  requestId: string;
  sessionId: string;
  agent: string;
}

/**
 * A filed request's picture: computed after the request is filed (the agent's answer never
 * waits for it), then stored with its audit entry and published as `request.picture` so the
 * surfaces showing the request add it.
 */
/** The most pictures computed at once (each may read a file of up to 1 MB or run git). */
export const MAX_COMPUTING = 32;

export class RequestPictures {
  /** Pictures being computed, so a test (or shutdown) can wait for them. */
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly d: RequestPicturesDeps) {}

  filed(owner: PictureOwner, call: PictureCall): void {
    // A flood of requests must not start a flood of file reads and git processes: past the
    // limit, the picture says it was not computed rather than queueing without end.
    const picture: Promise<RequestPicture> =
      this.running.size >= MAX_COMPUTING
        ? Promise.resolve({
            commands: call.actions,
            omitted: ['the diff and push: too many requests being pictured at once'],
          })
        : this.d.source.compute(call);
    const job = picture
      .then((p) => this.save(owner, p))
      .catch((error: unknown) =>
        this.d.log?.(
          `picture of ${owner.requestId}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }

  get(requestId: string): RequestPicture | undefined {
    return this.d.store.getPicture(requestId);
  }

  /** Resolves when every picture being computed now is stored. */
  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private save(owner: PictureOwner, picture: RequestPicture): void {
    this.d.work.run((u) => {
      this.d.store.savePicture(owner.requestId, picture, u.now);
      const { requestId, sessionId, agent } = owner;
      u.audit('request.picture', { requestId, sessionId, agent, data: summaryOf(picture) });
      u.publish({ type: 'request.picture', requestId: owner.requestId, picture });
    });
  }
}

/** What the audit entry keeps of a picture: what changes and how much, not the text. */
function summaryOf(p: RequestPicture): Record<string, unknown> {
  return {
    ...(p.files
      ? {
          files: p.files.map((f) => ({
            path: f.path,
            kind: f.kind,
            added: f.added,
            removed: f.removed,
          })),
        }
      : {}),
    ...(p.push
      ? {
          push: {
            remote: p.push.remote,
            branch: p.push.branch,
            force: p.push.force,
            commitCount: p.push.commitCount,
            head: p.push.commits[0]?.sha,
          },
        }
      : {}),
    ...(p.commands ? { commands: p.commands.length } : {}),
  };
}
