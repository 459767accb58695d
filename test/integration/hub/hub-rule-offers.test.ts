import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { z } from 'zod';
import { openHubDatabase } from '../../../main/hub/store/open-database';
import { RuleOffers } from '../../../shared/hub-rule-offers';
import { describeRule } from '../../../shared/rule-words';
import { runCli, type TestDaemon } from '../../support/daemon';
import type { TestHub } from '../../support/hub';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';
import { personHost, type PersonHost } from '../../support/person-host';

const PROJECT = '/work/p';
const APPLY = 'kubectl apply -f k8s/prod.yaml';

/**
 * "Always" on the hub saves the rule the machine previewed: the machine publishes its own
 * preview (narrowest first, then each widening) with the request, `gatehouse --hub URL
 * approve --pattern/--any-*` may pick only one of those, and the machine writes exactly it;
 * the rule is printed (and put in `--json` output) before deciding, shaped or not.
 * A real daemon joined to a real hub on a real PostgreSQL; the person's CLI runs on its own
 * GATEHOUSE_HOME with no daemon.
 */
describe('rule offers: "always" through the hub saves the rule the machine previewed', () => {
  let stage: PostgresHubStage;
  let databaseUrl: string;
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  let token: string;
  let person: PersonHost;

  const asAnn = (args: string[]) => runCli(person.env, ['--hub', hub.url, ...args]);
  const deploy = (command: string) =>
    agent.request({ action: 'deploy', description: command, command, wait: false });

  /** The hub's view of a request once the machine published it (with its offers). */
  function onHub(requestId: string): Promise<{ offers?: unknown }> {
    return hub.requestWhen(requestId, token, (r) => r.status === 200, 15_000);
  }

  beforeAll(async () => {
    stage = await startPostgresHubStage({ database: 'offers' });
    ({ databaseUrl, hub, daemon, admin } = stage);
    agent = await daemon.agent({ agent: 'ops', project: PROJECT });
    token = await hub.person('ann');
    person = personHost({ GATEHOUSE_HUB_TOKEN: token });
  }, 120_000);
  afterAll(async () => {
    agent?.close();
    await stage?.stop();
    person?.remove();
  });

  it('publishes the machine’s own preview with the request, ids and all', async () => {
    const q = await deploy(APPLY);
    const view = await onHub(q.requestId);
    const offers = RuleOffers.parse(view.offers);
    const preview = await admin.call('rules.preview', { requestId: q.requestId });
    expect(offers.map((o) => o.draft)).toEqual([preview.draft, ...preview.widenings]);
    expect(offers.map((o) => o.describe)).toEqual(preview.describe);
    expect(new Set(offers.map((o) => o.id)).size).toBe(offers.length);
    await admin.call('decide', { requestId: q.requestId, decision: 'deny', reason: 'cleanup' });
  });

  it('--pattern that is not an offer is refused, naming the offers; nothing is decided', async () => {
    const q = await deploy(APPLY);
    await onHub(q.requestId);
    for (const shaping of [
      ['--pattern', 'kubectl:*'],
      ['--pattern', 'helm:*'],
      // Any project but the exact command: not a step of the machine's ladder.
      ['--any-project'],
    ]) {
      const r = await asAnn(['approve', q.requestId, '--scope', 'always', ...shaping]);
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toMatch(/must give one of them|does not cover/);
    }
    const refused = await asAnn(['approve', q.requestId, '--scope', 'always', '--any-project']);
    expect(refused.stderr).toContain(`narrowest: deploy with command \`${APPLY}\``);
    expect(refused.stderr).toContain('wider 1: deploy with command `kubectl apply:*`');
    expect((await admin.call('request.get', { requestId: q.requestId })).request.status).toBe(
      'pending',
    );
    expect((await admin.call('rules.list', {})).rules).toEqual([]);

    // The hub's own API refuses an id the machine did not offer, and a rule's text.
    const body = { machine: 'laptop', requestId: q.requestId, decision: 'approve' as const };
    const notOffered = await hub.api('POST', '/api/decide', {
      token,
      body: { ...body, scope: 'always', terms: { ruleOffer: '0'.repeat(32) } },
    });
    expect(notOffered.status).toBe(400);
    expect(String(notOffered.body.error)).toContain('is not one machine laptop offered');
    const ruleText = await hub.api('POST', '/api/decide', {
      token,
      body: { ...body, scope: 'always', terms: { rule: { action: 'deploy' } } },
    });
    expect(ruleText.status).toBe(400);
    expect((await admin.call('rules.list', {})).rules).toEqual([]);
    await admin.call('decide', { requestId: q.requestId, decision: 'deny', reason: 'cleanup' });
  });

  it('--pattern naming an offer saves exactly that rule on the machine; the next call is auto', async () => {
    const q = await deploy(APPLY);
    await onHub(q.requestId);
    const r = await asAnn([
      'approve',
      q.requestId,
      '--scope',
      'always',
      '--pattern',
      'kubectl apply:*',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `will save the rule: deploy with command \`kubectl apply:*\` in project ${PROJECT}`,
    );
    const decided = (await admin.call('request.get', { requestId: q.requestId })).request;
    expect(decided).toMatchObject({ status: 'approved', decidedVia: 'hub:ann' });
    const rules = (await admin.call('rules.list', {})).rules;
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({
      action: 'deploy',
      commandPrefix: 'kubectl apply',
      project: PROJECT,
      tier: 'auto',
      source: 'decision',
    });
    expect(rules[0]!.command).toBeUndefined();
    expect(await deploy('kubectl apply -f k8s/staging.yaml')).toMatchObject({
      status: 'approved',
      decidedBy: 'rule',
    });
    expect(await deploy('kubectl delete namespace prod')).toMatchObject({ status: 'queued' });
  });

  it('"always" without shaping saves the narrowest offer, which the signed decision names', async () => {
    const command = 'terraform apply -auto-approve';
    const q = await deploy(command);
    const view = await onHub(q.requestId);
    const offers = RuleOffers.parse(view.offers);
    const r = await asAnn(['approve', q.requestId, '--scope', 'always']);
    expect(r.code, r.stderr).toBe(0);
    const rules = (await admin.call('rules.list', {})).rules;
    const saved = rules.find((x) => x.command === command);
    expect(saved).toMatchObject({ action: 'deploy', project: PROJECT });
    // Printed before deciding, as locally: the very rule the machine then saved.
    const printed = /^will save the rule: (.*)$/m.exec(r.stdout)?.[1];
    expect(printed).toBe(describeRule(saved!));
    expect(printed).toBe(offers[0]!.describe);
    expect(await deploy(command)).toMatchObject({ status: 'approved', decidedBy: 'rule' });
    expect(await deploy('terraform destroy')).toMatchObject({ status: 'queued' });
    expect(offers[0]!.draft.command).toBe(command);
  });

  it('"always" with --json includes the rule it saves, the one the machine saved', async () => {
    const command = 'helm upgrade web ./chart';
    const q = await deploy(command);
    await onHub(q.requestId);
    const r = await asAnn(['approve', q.requestId, '--scope', 'always', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = z
      .object({
        requestId: z.string(),
        status: z.string(),
        approvedRule: z.object({
          scope: z.string(),
          description: z.string(),
          draft: z.record(z.string(), z.unknown()),
        }),
      })
      .parse(JSON.parse(r.stdout));
    expect(out).toMatchObject({ requestId: q.requestId, status: 'approved' });
    const saved = (await admin.call('rules.list', {})).rules.find((x) => x.command === command);
    expect(saved).toMatchObject({ action: 'deploy', project: PROJECT, source: 'decision' });
    expect(out.approvedRule).toEqual({
      scope: 'always',
      description: describeRule(saved!),
      draft: expect.objectContaining({ action: 'deploy', command, project: PROJECT }),
    });
  });

  it('"always" on a machine that offered no rules says it saves its own narrowest, which it does', async () => {
    const command = 'kubectl scale deploy/api --replicas=3';
    const q = await deploy(command);
    await onHub(q.requestId);
    // As an older Gatehouse publishes it: no offers.
    const db = await openHubDatabase({ url: databaseUrl, dataDir: '' });
    try {
      await db.query('UPDATE requests SET rule_offers = NULL WHERE request_id = $1', [q.requestId]);
    } finally {
      await db.close();
    }
    expect((await onHub(q.requestId)).offers).toBeUndefined();
    const r = await asAnn(['approve', q.requestId, '--scope', 'always']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("will save the rule: laptop's own narrowest rule");
    const saved = (await admin.call('rules.list', {})).rules.find((x) => x.command === command);
    expect(saved).toMatchObject({ action: 'deploy', project: PROJECT, source: 'decision' });
  });

  it('"session" without shaping prints what it covers, and the machine covers exactly that', async () => {
    const command = 'kubectl rollout restart deploy/web';
    const q = await deploy(command);
    await onHub(q.requestId);
    const r = await asAnn(['approve', q.requestId, '--scope', 'session']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `will cover for this session: deploy with command \`${command}\` in project ${PROJECT}`,
    );
    expect(await deploy(command)).toMatchObject({ status: 'approved' });
    expect(await deploy('kubectl rollout restart deploy/db')).toMatchObject({ status: 'queued' });
  });
});
