import { randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock';
import { MAX_TEAM_POLICY_BYTES, type MachineToHub } from '../../shared/hub-protocol';
import { signText, type Ed25519Pair } from '../../shared/node/hub-keys';
import {
  TeamPolicyBundle,
  teamPolicyText,
  type ShadowRecord,
  type TeamRule,
  type TeamRuleMode,
} from '../../shared/policy/team-policy';
import { HUB_CHANNEL, type HubNotice } from './hub-events';
import { HubRefusal } from './hub-service';
import { appendAudit } from './store/audit-repo';
import type { SqlDatabase } from './store/sql';
import {
  deleteTeamRule,
  insertBundle,
  insertTeamRule,
  latestBundle,
  listTeamRules,
  lockPublishing,
  machineTeamVersions,
  setMachineTeamVersion,
  shadowReport,
  storeShadowRecords,
  updateTeamRule,
  type BundleRow,
} from './store/team-policy-repo';

/** How many examples a shadow report shows at most. */
const REPORT_EXAMPLES = 20;

/**
 * Team policy on the hub (admin tier): rules edited in PostgreSQL, published as one bundle
 * whose version is one more than the last, signed with the hub's key and sent to every linked
 * machine (NOTIFY reaches the replica each machine is linked to; a machine that connects with
 * an older version gets the newest). Machines report what shadow rules would have changed.
 */
export class TeamPolicyService {
  constructor(private readonly d: { db: SqlDatabase; clock: Clock; identity: Ed25519Pair }) {}

  async addRule(input: Omit<TeamRule, 'ruleId'>, actor = 'admin'): Promise<TeamRule> {
    const now = this.d.clock.now();
    const rule: TeamRule = { ...input, ruleId: `tr-${randomBytes(5).toString('hex')}` };
    await this.d.db.transaction(async (tx) => {
      await insertTeamRule(tx, rule, now);
      await appendAudit(tx, now, { type: 'team_policy.rule_added', actor, data: { ...rule } });
    });
    return rule;
  }

  async removeRule(ruleId: string, actor = 'admin'): Promise<void> {
    const now = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      if (!(await deleteTeamRule(tx, ruleId))) throw new HubRefusal(404, `no team rule ${ruleId}`);
      await appendAudit(tx, now, { type: 'team_policy.rule_removed', actor, data: { ruleId } });
    });
  }

  /** Turns a shadow rule on (`enforce`) or back to shadow; takes effect at the next publish. */
  async setMode(ruleId: string, mode: TeamRuleMode, actor = 'admin'): Promise<TeamRule> {
    const now = this.d.clock.now();
    return this.d.db.transaction(async (tx) => {
      const rule = (await listTeamRules(tx)).find((r) => r.ruleId === ruleId);
      if (!rule) throw new HubRefusal(404, `no team rule ${ruleId}`);
      const changed = { ...rule, mode };
      await updateTeamRule(tx, changed, now);
      await appendAudit(tx, now, {
        type: 'team_policy.rule_mode',
        actor,
        data: { ruleId, mode },
      });
      return changed;
    });
  }

  /** The rules as edited, the newest published version, and the version each machine runs. */
  async list(): Promise<{
    rules: TeamRule[];
    published?: { version: number; at: number };
    machines: { name: string; version: number }[];
  }> {
    const rules = await listTeamRules(this.d.db);
    const latest = await latestBundle(this.d.db);
    const machines = await machineTeamVersions(this.d.db);
    return {
      rules,
      ...(latest ? { published: { version: latest.version, at: latest.publishedAt } } : {}),
      machines,
    };
  }

  /** The version a machine said it runs as it connected. */
  reported(machineId: string, version: number): Promise<void> {
    return setMachineTeamVersion(this.d.db, machineId, version);
  }

  /** A new version of the bundle from the rules as they are now, signed, sent to every machine. */
  async publish(actor = 'admin'): Promise<{ version: number; rules: number }> {
    const now = this.d.clock.now();
    return this.d.db.transaction(async (tx) => {
      await lockPublishing(tx);
      const version = ((await latestBundle(tx))?.version ?? 0) + 1;
      const rules = await listTeamRules(tx);
      const payload = JSON.stringify(
        TeamPolicyBundle.parse({ v: 1, version, publishedAt: now, rules }),
      );
      // A machine refuses a larger message as broken, and would drop its link each time.
      if (payload.length > MAX_TEAM_POLICY_BYTES)
        throw new HubRefusal(
          409,
          `the team policy is ${payload.length} bytes, above the ${MAX_TEAM_POLICY_BYTES} a machine takes: remove rules`,
        );
      await insertBundle(tx, {
        version,
        payload,
        signature: signText(this.d.identity.privateKeyPem, teamPolicyText(payload)),
        publishedAt: now,
        publishedBy: actor,
      });
      await appendAudit(tx, now, {
        type: 'team_policy.published',
        actor,
        data: { version, rules: rules.map((r) => r.ruleId) },
      });
      const notice: HubNotice = { kind: 'team_policy', version };
      await tx.query('SELECT pg_notify($1, $2)', [HUB_CHANNEL, JSON.stringify(notice)]);
      return { version, rules: rules.length };
    });
  }

  /** The newest bundle, when the machine runs an older one (or none). */
  async newerThan(version: number): Promise<BundleRow | undefined> {
    const latest = await latestBundle(this.d.db);
    return latest && latest.version > version ? latest : undefined;
  }

  latest(): Promise<BundleRow | undefined> {
    return latestBundle(this.d.db);
  }

  shadowed(machineId: string, records: readonly ShadowRecord[]): Promise<void> {
    return this.d.db.transaction((tx) => storeShadowRecords(tx, machineId, records));
  }

  /** A machine's word on a bundle; a refusal is audited (an admin should look). */
  async answered(
    machineId: string,
    a: Extract<MachineToHub, { t: 'team_policy_answer' }>,
  ): Promise<void> {
    if (a.outcome !== 'refused') await setMachineTeamVersion(this.d.db, machineId, a.version);
    if (a.outcome === 'unchanged') return;
    await appendAudit(this.d.db, this.d.clock.now(), {
      type: a.outcome === 'accepted' ? 'team_policy.applied' : 'team_policy.refused_by_machine',
      machineId,
      data: { version: a.version, ...(a.detail ? { detail: a.detail } : {}) },
    });
  }

  report(o: { ruleId?: string; sinceMs: number }) {
    return shadowReport(this.d.db, {
      ...(o.ruleId ? { ruleId: o.ruleId } : {}),
      since: this.d.clock.now() - o.sinceMs,
      examples: REPORT_EXAMPLES,
    });
  }
}
