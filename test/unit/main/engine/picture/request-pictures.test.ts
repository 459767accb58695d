import { afterEach, describe, expect, it } from 'vitest';
import type { PictureCall } from '../../../../../main/engine/picture/picture-source';
import {
  MAX_COMPUTING,
  RequestPictures,
} from '../../../../../main/engine/picture/request-pictures';
import type { RequestPicture } from '../../../../../shared/request-picture/picture-schema';
import { EngineHarness } from '../../../../support/engine-harness';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const call: PictureCall = {
  tool: 'Bash',
  input: { command: 'git push' },
  actions: [{ action: 'git_push', tier: 'ask', rule: 'default:git_push' }],
};

describe('request pictures', () => {
  it('stores each picture with its audit entry and event once computed; past the limit says it was not computed', async () => {
    h = new EngineHarness();
    const release: (() => void)[] = [];
    const pictures = new RequestPictures({
      store: h.stores.pictures,
      work: h.work,
      source: {
        compute: (c) =>
          new Promise<RequestPicture>((done) =>
            release.push(() =>
              done({
                commands: c.actions,
                files: [{ path: '/p/a', kind: 'modify', added: 1, removed: 0 }],
              }),
            ),
          ),
        fullDiff: () => Promise.resolve({}),
      },
    });
    const owners = Array.from({ length: MAX_COMPUTING + 3 }, (_, i) => ({
      requestId: `req-${i}`,
      sessionId: 'ses-1',
      agent: 'agent-a',
    }));
    for (const o of owners) pictures.filed(o, call);
    // Only MAX_COMPUTING computations were started; the rest are stored at once, saying so.
    expect(release).toHaveLength(MAX_COMPUTING);
    expect(pictures.get('req-0')).toBeUndefined();
    for (const r of release) r();
    await pictures.settled();
    expect(pictures.get('req-0')?.files?.[0]?.added).toBe(1);
    expect(pictures.get(`req-${MAX_COMPUTING}`)).toEqual({
      commands: call.actions,
      omitted: ['the diff and push: too many requests being pictured at once'],
    });
    await h.work.durable();
    const published = h.events.filter((e) => e.type === 'request.picture');
    expect(published).toHaveLength(owners.length);
    const audited = h.store.queryAudit({ type: 'request.picture', limit: 100 });
    expect(audited.length).toBe(owners.length);
  });
});
