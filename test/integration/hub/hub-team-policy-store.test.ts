import { describe, expect, it } from 'vitest';
import { TeamPolicyService } from '../../../main/hub/team-policy-service';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import { generateEd25519, verifyText } from '../../../shared/node/hub-keys';
import { TeamPolicyBundle, teamPolicyText } from '../../../shared/policy/team-policy';
import { FakeClock } from '../../support/fake-clock';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';

const T0 = 1_800_000_000_000;
const DAY = 86_400_000;
const dbs = hubDatabases();

describe.each(HUB_BACKENDS)('team policy on the hub, on %s', (backend) => {
  it('publishes signed bundles with one more version each time, even two at once', async () => {
    const db = await dbs.fresh(backend);
    const identity = generateEd25519();
    const team = new TeamPolicyService({ db, clock: new FakeClock(T0), identity });
    const rule = await team.addRule({ action: 'git_push', tier: 'ask', mode: 'enforce' });
    expect(rule.ruleId).toMatch(/^tr-[a-f0-9]{10}$/);
    const [a, b] = await Promise.all([team.publish(), team.publish()]);
    expect([a.version, b.version].sort()).toEqual([1, 2]);
    const latest = (await team.latest())!;
    expect(latest.version).toBe(2);
    expect(verifyText(identity.publicKey, teamPolicyText(latest.payload), latest.signature)).toBe(
      true,
    );
    expect(TeamPolicyBundle.parse(JSON.parse(latest.payload))).toMatchObject({
      version: 2,
      rules: [rule],
    });
    expect(await team.newerThan(2)).toBeUndefined();
    expect((await team.newerThan(1))?.version).toBe(2);
    await team.setMode(rule.ruleId, 'shadow');
    await team.removeRule(rule.ruleId);
    await expect(team.removeRule(rule.ruleId)).rejects.toThrow(/no team rule/);
    expect(await team.list()).toEqual({
      rules: [],
      published: { version: 2, at: T0 },
      machines: [],
    });
  });

  it('counts shadow records by outcome and machine, once each, within the window', async () => {
    const db = await dbs.fresh(backend);
    const clock = new FakeClock(T0);
    const team = new TeamPolicyService({ db, clock, identity: generateEd25519() });
    for (const [id, name] of [
      ['m1', 'laptop'],
      ['m2', 'desktop'],
    ])
      await registerMachine(db, {
        machineId: id!,
        name: name!,
        publicKey: 'k'.repeat(44),
        now: T0,
      });
    const record = (id: number, at: number, actual: 'auto' | 'ask' = 'auto') => ({
      id,
      at,
      ruleId: 'tr-aaaa1',
      version: 3,
      action: 'write_file',
      would: 'ask' as const,
      actual,
      summary: `docs/${id}.md`,
    });
    await team.shadowed('m1', [record(1, T0 - DAY), record(2, T0 - 2 * DAY)]);
    // Sent again after a lost acknowledgement: kept once.
    await team.shadowed('m1', [record(2, T0 - 2 * DAY)]);
    await team.shadowed('m2', [record(1, T0 - DAY), record(2, T0 - 30 * DAY)]);
    const week = await team.report({ sinceMs: 7 * DAY });
    expect(week.counts).toEqual([
      { ruleId: 'tr-aaaa1', would: 'ask', actual: 'auto', count: 3, machines: 2 },
    ]);
    expect(week.examples.map((e) => `${e.machine} ${e.summary}`)).toEqual([
      'desktop docs/1.md',
      'laptop docs/1.md',
      'laptop docs/2.md',
    ]);
    expect((await team.report({ sinceMs: 60 * DAY, ruleId: 'tr-other1' })).counts).toEqual([]);
  });

  it('refuses to publish a bundle larger than a machine takes, and keeps the last version', async () => {
    const db = await dbs.fresh(backend);
    const team = new TeamPolicyService({
      db,
      clock: new FakeClock(T0),
      identity: generateEd25519(),
    });
    await team.addRule({ action: 'deploy', tier: 'deny', mode: 'enforce' });
    expect((await team.publish()).version).toBe(1);
    for (let i = 0; i < 70; i++)
      await team.addRule({
        action: 'run_command',
        tier: 'ask',
        mode: 'enforce',
        command: `${i} ${'x'.repeat(8000)}`,
      });
    await expect(team.publish()).rejects.toThrow(/above the 524288 a machine takes/);
    expect((await team.latest())?.version).toBe(1);
  });
});
