import { describe, expect, it } from 'vitest';
import { draftLadder } from '../../../../main/engine/policy/rule-draft';
import { ruleOfferId, ruleOffersOf } from '../../../../main/hub-link/rule-offers';
import { describeRule } from '../../../../shared/policy/rule-match';
import { offerOf } from '../../../../shared/hub-rule-offer-match';
import { MAX_RULE_OFFERS_CHARS, RuleOffers } from '../../../../shared/hub-rule-offers';

const previewOf = (r: Parameters<typeof draftLadder>[0]) => {
  const { draft, widenings } = draftLadder(r);
  return { draft, widenings, describe: [draft, ...widenings].map(describeRule) };
};

/** The rules a machine offers with a request it publishes, from its own preview. */
describe('ruleOffersOf', () => {
  it('offers the whole ladder, narrowest first, each with an id of its rule', () => {
    const preview = previewOf({
      action: 'deploy',
      command: 'kubectl apply -f k8s/prod.yaml',
      project: '/work/p',
    });
    const offers = ruleOffersOf(preview)!;
    expect(RuleOffers.parse(offers)).toEqual(offers);
    expect(offers.map((o) => o.draft)).toEqual([preview.draft, ...preview.widenings]);
    expect(offers.map((o) => o.describe)).toEqual(preview.describe);
    expect(offers.map((o) => o.id)).toEqual(offers.map((o) => ruleOfferId(o.draft)));
    expect(new Set(offers.map((o) => o.id)).size).toBe(offers.length);
  });

  it('gives one rule one id, however it is written', () => {
    const a = ruleOfferId({ action: 'deploy', command: 'kubectl  apply -f x', project: '/p' });
    const b = ruleOfferId({ project: '/p', command: 'kubectl apply -f x', action: 'deploy' });
    expect(a).toBe(b);
    expect(ruleOfferId({ action: 'deploy', project: '/p' })).not.toBe(a);
  });

  it('finds the offer a shaped draft is, and none for a rule it did not offer', () => {
    const offers = ruleOffersOf(
      previewOf({ action: 'deploy', command: 'kubectl apply -f x.yaml', project: '/p' }),
    )!;
    expect(
      offerOf(offers, { action: 'deploy', commandPrefix: 'kubectl apply:*', project: '/p' }),
    ).toBe(offers[1]);
    expect(offerOf(offers, { action: 'deploy', commandPrefix: 'kubectl:*', project: '/p' })).toBe(
      undefined,
    );
    expect(offerOf(offers, { action: 'deploy', command: 'kubectl apply -f x.yaml' })).toBe(
      undefined,
    );
  });

  it('bounds what travels: a prefix of the ladder that fits, or nothing', () => {
    const many = Array.from({ length: 200 }, (_, i) => `/p/src/dir${i}/${'f'.repeat(60)}.ts`);
    const offers = ruleOffersOf(previewOf({ action: 'write_file', paths: many, project: '/p' }));
    const ladder = previewOf({ action: 'write_file', paths: many, project: '/p' });
    expect(offers).toBeDefined();
    expect(JSON.stringify(offers).length).toBeLessThanOrEqual(MAX_RULE_OFFERS_CHARS);
    expect(offers!.map((o) => o.draft)).toEqual(
      [ladder.draft, ...ladder.widenings].slice(0, offers!.length),
    );
    const huge = Array.from({ length: 200 }, (_, i) => `/p/${i}/${'g'.repeat(400)}`);
    expect(ruleOffersOf(previewOf({ action: 'write_file', paths: huge, project: '/p' }))).toBe(
      undefined,
    );
  });
});
