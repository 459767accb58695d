import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decisionText } from '../../../shared/hub-protocol';
import { signText } from '../../../shared/node/hub-keys';
import { waitForPending } from '../../support/daemon';
import { linkAttackStage } from '../../support/hub-link-attack-stage';
import { RogueHub } from '../../support/rogue-hub';

const PROJECT = '/work/p';
const APPLY = 'kubectl apply -f k8s/prod.yaml';

/**
 * A compromised hub (or approver) with the real hub key tries to make a joined machine save a
 * rule wider than the ones it offered: an id it never offered, or a rule's text. The machine
 * refuses both (and says why), saves nothing, and then applies a real offer exactly.
 */
describe('forged rule choices on the hub link (real daemon, real hub key)', () => {
  const stage = linkAttackStage({ database: 'offer_attacks', agent: 'ops', project: PROJECT });

  it('refuses an id it did not offer and a rule text; applies a real offer exactly', async () => {
    const { agent, admin, hubKeyPem, machineId, port } = stage;
    const rogue = await RogueHub.start(port, hubKeyPem);
    try {
      await expect.poll(() => rogue.linked, { timeout: 40_000, interval: 200 }).toBe(true);
      const answer = agent.request({ action: 'deploy', description: APPLY, command: APPLY });
      const id = (await waitForPending(admin, (r) => r.description === APPLY)).requestId;
      const published = () =>
        rogue.received
          .flatMap((m) => (m.t === 'publish' ? m.entries : []))
          .find((e) => e.kind === 'request.asked' && e.request.requestId === id);
      await expect.poll(() => published() !== undefined, { timeout: 15_000 }).toBe(true);
      const offers = published()!.offers!;
      expect(offers.length).toBeGreaterThanOrEqual(3);

      const signed = (terms: Record<string, unknown>) => {
        const decisionId = randomUUID();
        const payload = JSON.stringify({
          v: 2,
          decisionId,
          machineId,
          requestId: id,
          decision: 'approve',
          scope: 'always',
          terms,
          person: 'mallory',
          issuedAt: Date.now(),
          expiresAt: Date.now() + 60_000,
        });
        return {
          decisionId,
          message: { t: 'decision', payload, sig: signText(hubKeyPem, decisionText(payload)) },
        };
      };
      // 1. An id of the right shape that the machine never offered (a digest of `deploy`).
      const unknownId = signed({ ruleOffer: 'f'.repeat(32) });
      rogue.send(unknownId.message);
      // 2. A rule's text, action-wide, alongside a real offer's id.
      const ruleText = signed({ ruleOffer: offers[0]!.id, rule: { action: 'deploy' } });
      rogue.send(ruleText.message);
      await expect.poll(() => rogue.answers().length, { timeout: 10_000 }).toBe(2);
      expect(rogue.answers()).toEqual([
        {
          t: 'answer',
          decisionId: unknownId.decisionId,
          outcome: 'refused',
          detail: `rule ${'f'.repeat(32)} is not one this machine offered for request ${id}`,
        },
        {
          t: 'answer',
          decisionId: ruleText.decisionId,
          outcome: 'refused',
          detail:
            'the decision carries a rule; this machine applies only a rule it offered, named by its id',
        },
      ]);
      const refused = await admin.call('audit.query', { type: 'hub.decision_refused', limit: 50 });
      expect(refused.events.map((e) => e.data.reason)).toEqual([
        'rule_not_offered',
        'rule_not_offered',
      ]);
      expect((await admin.call('rules.list', {})).rules).toEqual([]);
      expect((await admin.call('request.get', { requestId: id })).request.status).toBe('pending');

      // A real offer (the prefix step) applies: exactly that rule is saved.
      const real = signed({ ruleOffer: offers[1]!.id });
      rogue.send(real.message);
      expect(await answer).toMatchObject({ status: 'approved' });
      await expect.poll(() => rogue.answers().length, { timeout: 10_000 }).toBe(3);
      expect(rogue.answers()[2]).toEqual({
        t: 'answer',
        decisionId: real.decisionId,
        outcome: 'applied',
      });
      const rules = (await admin.call('rules.list', {})).rules;
      expect(rules).toHaveLength(1);
      const { ruleId: _id, createdAt: _at, note: _note, tier, source, ...matchers } = rules[0]!;
      expect({ tier, source }).toEqual({ tier: 'auto', source: 'decision' });
      expect(matchers).toEqual(offers[1]!.draft);
      expect(offers[1]!.draft).toEqual({
        action: 'deploy',
        commandPrefix: 'kubectl apply',
        project: PROJECT,
      });
    } finally {
      await rogue.stop();
    }
  }, 90_000);
});
