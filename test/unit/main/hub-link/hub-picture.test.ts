import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../../shared/domain';
import { forHub, MAX_HUB_PICTURE_CHARS } from '../../../../main/hub-link/hub-picture';

const request = (picture: RequestRecord['picture']): RequestRecord =>
  ({ requestId: 'req_1', status: 'pending', picture }) as RequestRecord;

describe('the picture a machine publishes to its hub', () => {
  it('travels as it is when it is within the bound', () => {
    const r = request({
      files: [{ path: 'a.ts', kind: 'modify', added: 1, removed: 1, diff: '-a\n+b' }],
    });
    expect(forHub(r)).toBe(r);
  });

  it('leaves out the diffs and file contents first, each saying so', () => {
    const big = 'x'.repeat(MAX_HUB_PICTURE_CHARS);
    const out = forHub(
      request({
        files: [{ path: 'a.ts', kind: 'modify', added: 9, removed: 0, diff: big }],
        applied: [{ by: 'kubectl apply', path: 'k8s/prod.yaml', content: 'kind: Deployment' }],
        message: { kind: 'email', to: ['ann@example.com'], body: 'hello' },
      }),
    ).picture!;
    expect(out.files).toEqual([
      {
        path: 'a.ts',
        kind: 'modify',
        added: 9,
        removed: 0,
        omitted: expect.stringContaining('the diff is left out on the hub') as string,
      },
    ]);
    expect(out.applied![0]!.content).toBeUndefined();
    expect(out.applied![0]!.omitted).toContain('left out on the hub');
    expect(out.message).toEqual({ kind: 'email', to: ['ann@example.com'], body: 'hello' });
  });

  it('leaves out the whole picture when even that is too large', () => {
    const out = forHub(
      request({
        omitted: Array.from({ length: 20 }, () => 'y'.repeat(MAX_HUB_PICTURE_CHARS / 10)),
      }),
    );
    expect(out.picture).toEqual({ omitted: [expect.stringContaining('the picture is left out')] });
  });
});
