import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decisionText, type HubDecision } from '../../../shared/hub-protocol';
import { hubLinkFiles } from '../../../shared/node/hub-files';
import { generateEd25519, signText } from '../../../shared/node/hub-keys';
import { waitForPending } from '../../support/daemon';
import { linkAttackStage } from '../../support/hub-link-attack-stage';
import { RogueHub } from '../../support/rogue-hub';

/**
 * The attacker's view of the hub link: an agent on a joined machine, and whoever answers at
 * the hub's address. The real hub is stopped after the join and a rogue takes its port; with
 * the real hub key (read from its database) it shows what the machine checks beyond the
 * signature: the machine, the request, a replay.
 */
describe('attacks on the hub link (real daemon, real hub key)', () => {
  const stage = linkAttackStage({ database: 'attacks', agent: 'builder', project: '/work/p' });

  it('an agent cannot read the machine key: reading it asks, as a protected location', async () => {
    const { agent, daemon } = stage;
    const key = hubLinkFiles(daemon.home).key;
    for (const a of [
      { action: 'read_file', paths: [key] },
      { action: 'read_file', command: `cat ${key}` },
      { action: 'read_file', command: 'cat $GATEHOUSE_HOME/hub-link/machine.key' },
    ])
      expect(await agent.classify(a)).toMatchObject({
        tier: 'ask',
        rule: 'protected:gatehouse',
        risk: 'critical',
      });
  });

  it('a hub that cannot sign with the pinned key gets nothing published', async () => {
    const { agent, admin, daemon, port } = stage;
    const rogue = await RogueHub.start(port, generateEd25519().privateKeyPem);
    try {
      void agent.request({ action: 'git_push', description: 'secret push', wait: false });
      await waitForPending(admin, (r) => r.description === 'secret push');
      const status = await expect
        .poll(
          async () =>
            JSON.parse((await daemon.cli(['hub', 'status', '--json'])).stdout) as {
              state?: { error?: string };
            },
          {
            timeout: 15_000,
          },
        )
        .toMatchObject({ state: { error: 'the hub did not prove its pinned key' } });
      void status;
      expect(rogue.received.some((m) => m.t === 'auth')).toBe(true);
      expect(rogue.received.filter((m) => m.t === 'publish')).toEqual([]);
    } finally {
      await rogue.stop();
    }
  }, 60_000);

  it('refuses and audits a forged, misdirected or unknown decision, and applies a real one once', async () => {
    const { agent, admin, hubKeyPem, machineId, port } = stage;
    const rogue = await RogueHub.start(port, hubKeyPem);
    try {
      await expect.poll(() => rogue.linked, { timeout: 40_000, interval: 200 }).toBe(true);
      const answer = agent.request({
        action: 'deploy',
        target: 'prod',
        description: 'deploy prod',
      });
      const id = (await waitForPending(admin, (r) => r.description === 'deploy prod')).requestId;
      await expect
        .poll(() =>
          rogue.received.some(
            (m) => m.t === 'publish' && m.entries.some((e) => e.request.requestId === id),
          ),
        )
        .toBe(true);
      const decision = (over: Partial<HubDecision>): HubDecision => ({
        v: 1,
        decisionId: randomUUID(),
        machineId,
        requestId: id,
        decision: 'approve',
        person: 'mallory',
        issuedAt: Date.now(),
        expiresAt: Date.now() + 60_000,
        ...over,
      });
      const signed = (d: HubDecision, key = hubKeyPem) => {
        const payload = JSON.stringify(d);
        return { t: 'decision', payload, sig: signText(key, decisionText(payload)) };
      };
      // 1. Signed by a key that is not the pinned one.
      rogue.send(signed(decision({}), generateEd25519().privateKeyPem));
      // 2. Signed by the hub, for another machine.
      const other = decision({ machineId: randomUUID() });
      rogue.send(signed(other));
      // 3. Signed by the hub, for a request this machine never published.
      const unknown = decision({ requestId: 'r-not-published' });
      rogue.send(signed(unknown));
      // 4. Expired.
      const stale = decision({ issuedAt: Date.now() - 120_000, expiresAt: Date.now() - 60_000 });
      rogue.send(signed(stale));
      // 5. A real decision's signature on an edited payload (another request).
      const real = decision({ person: 'ann' });
      const realMessage = signed(real);
      rogue.send({ ...realMessage, payload: realMessage.payload.replace(id, 'r-other') });
      await expect.poll(() => rogue.answers().length, { timeout: 10_000 }).toBe(3);
      expect(rogue.answers()).toEqual([
        {
          t: 'answer',
          decisionId: other.decisionId,
          outcome: 'refused',
          detail: 'the decision is for another machine',
        },
        {
          t: 'answer',
          decisionId: unknown.decisionId,
          outcome: 'refused',
          detail: 'this machine published no such request',
        },
        {
          t: 'answer',
          decisionId: stale.decisionId,
          outcome: 'refused',
          detail: 'the decision expired',
        },
      ]);
      const refused = await admin.call('audit.query', { type: 'hub.decision_refused', limit: 50 });
      expect(refused.events.map((e) => e.data.reason).sort()).toEqual(
        ['bad_signature', 'bad_signature', 'expired', 'other_machine', 'unknown_request'].sort(),
      );
      expect((await admin.call('request.get', { requestId: id })).request.status).toBe('pending');

      // The real one applies; the same message again (a replay) is answered, not applied again.
      rogue.send(realMessage);
      expect(await answer).toMatchObject({ status: 'approved', decidedBy: 'human' });
      rogue.send(realMessage);
      await expect.poll(() => rogue.answers().length, { timeout: 10_000 }).toBe(5);
      expect(rogue.answers().slice(3)).toEqual([
        { t: 'answer', decisionId: real.decisionId, outcome: 'applied' },
        { t: 'answer', decisionId: real.decisionId, outcome: 'applied' },
      ]);
      const approvals = await admin.call('audit.query', {
        type: 'request.approved',
        requestId: id,
      });
      expect(approvals.events).toHaveLength(1);
      expect(approvals.events[0]!.data.via).toBe('hub:ann');
      const repeated = await admin.call('audit.query', {
        type: 'hub.decision_repeated',
        requestId: id,
      });
      expect(repeated.events).toHaveLength(1);
    } finally {
      await rogue.stop();
    }
  }, 90_000);
});
