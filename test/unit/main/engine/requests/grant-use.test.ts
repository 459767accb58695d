import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrantUse } from '../../../../../main/engine/requests/grant-use';
import { GrantBook } from '../../../../../main/engine/requests/grants';
import { actionFingerprint } from '../../../../../main/engine/requests/action-fingerprint';
import { sequentialIds } from '../../../../../main/engine/kernel/ids';
import type { Classification } from '../../../../../main/engine/policy/classifier';
import type { SessionRow } from '../../../../../main/engine/sessions/sessions-store';
import { EngineHarness } from '../../../../support/engine-harness';

/** Grants where they settle a call outside the review queue. */
describe('GrantUse', () => {
  let h: EngineHarness;
  let use: GrantUse;
  let book: GrantBook;
  let session: SessionRow;
  const asks: Classification = { tier: 'ask', rule: 'default:web_fetch', reason: 'asks' };
  const fetch = (target: string) => ({ action: 'web_fetch', target });

  beforeEach(() => {
    h = new EngineHarness();
    book = new GrantBook(h.store, sequentialIds());
    use = new GrantUse(book, h.work, h.clock);
    const caller = h.hello('agent-a');
    session = h.store.getSession(caller.sessionId)!;
    h.work.run(() =>
      h.store.insertGrant({
        grantId: 'gra-1',
        agent: 'agent-a',
        action: 'web_fetch',
        usesLeft: 1,
        spentUsd: 0,
        sourceRequestId: 'req-0',
        kind: 'envelope',
        createdAt: h.clock.now(),
      }),
    );
    h.work.flush();
  });
  afterEach(() => h.close());

  const usesLeft = () => h.store.listLiveGrants('agent-a', 'web_fetch')[0]?.usesLeft;

  it('reports a grant without using it, and never as auto', () => {
    for (let i = 0; i < 3; i++)
      expect(use.report(session, fetch('https://a'), asks)).toMatchObject({
        tier: 'ask',
        rule: 'grant:gra-1',
      });
    expect(usesLeft()).toBe(1);
  });

  it('uses the grant up in the unit that records the call, once', () => {
    const recorded: number[] = [];
    const used = use.allow(session, [{ a: fetch('https://a'), c: asks }], (u) =>
      recorded.push(u.now),
    );
    expect(used?.map((g) => g.grantId)).toEqual(['gra-1']);
    expect(recorded).toHaveLength(1);
    h.work.flush();
    expect(usesLeft()).toBeUndefined();
    expect(use.allow(session, [{ a: fetch('https://a'), c: asks }], () => undefined)).toBe(
      undefined,
    );
  });

  it('two actions of one call on a last use: nothing is used or recorded', () => {
    let recorded = false;
    const used = use.allow(
      session,
      [
        { a: fetch('https://a'), c: asks },
        { a: fetch('https://b'), c: asks },
      ],
      () => (recorded = true),
    );
    expect(used).toBeUndefined();
    expect(recorded).toBe(false);
    h.work.flush();
    expect(usesLeft()).toBe(1);
  });

  it('a protected action or a run after its inputs changed takes only a late approval', () => {
    for (const rule of ['protected:gatehouse', 'watch:tests'])
      expect(use.report(session, fetch('https://a'), { ...asks, rule })).toMatchObject({ rule });
  });

  it('a late approval covers its action only in the directory it was asked in', () => {
    const rm = { action: 'delete_files', command: 'rm -rf build', paths: ['build'] };
    const rmAsks: Classification = { tier: 'ask', rule: 'default:delete_files', reason: 'asks' };
    h.work.run(() =>
      h.store.insertGrant({
        grantId: 'gra-late',
        agent: 'agent-a',
        action: 'delete_files',
        fingerprint: actionFingerprint(rm, '/home/u/app'),
        usesLeft: 1,
        spentUsd: 0,
        sourceRequestId: 'req-1',
        kind: 'late_approval',
        createdAt: h.clock.now(),
      }),
    );
    h.work.flush();
    for (const elsewhere of ['/home/u', '/home/u/app/sub', undefined])
      expect(
        use.allow(session, [{ a: rm, c: rmAsks, at: { runsIn: elsewhere } }], () => undefined),
      ).toBe(undefined);
    const used = use.allow(
      session,
      [{ a: rm, c: rmAsks, at: { runsIn: '/home/u/app' } }],
      () => undefined,
    );
    expect(used?.map((g) => g.grantId)).toEqual(['gra-late']);
  });
});
