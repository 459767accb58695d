import { randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock';
import {
  DecisionRuleDraft,
  describeRule,
  type DecisionRule,
} from '../../shared/hub-decision-rules';
import type { HubTeamView } from '../../shared/protocol/hub-web-methods';
import { HubRefusal } from './hub-service';
import { quorumState, ruleFor, whyNot } from './quorum';
import { appendAudit } from './store/audit-repo';
import {
  deleteDecisionRule,
  insertDecisionRule,
  listDecisionRules,
} from './store/decision-rules-repo';
import {
  addMember,
  deleteGroup,
  ensureGroup,
  listGroups,
  removeMember,
  type HubGroup,
} from './store/groups-repo';
import type { MachineRow } from './store/machines-repo';
import { personByName, type Person } from './store/people-repo';
import type { HubRequest } from './store/requests-repo';
import type { SqlDatabase } from './store/sql';

/**
 * The hub's groups as an admin makes them (memberships of source `hub`; the identity
 * provider's stay its own), the team's decision rules, and what a rule means for one person
 * and one request (may they decide it, how far its quorum got). Changes are admin-only (the
 * routes check the hub admin token) and each is one transaction with its audit entry.
 */
export class HubTeamRules {
  constructor(private readonly d: { db: SqlDatabase; clock: Clock }) {}

  groups(): Promise<HubGroup[]> {
    return listGroups(this.d.db);
  }

  async addGroup(name: string, actor = 'admin'): Promise<{ created: boolean }> {
    const now = this.d.clock.now();
    return this.d.db.transaction(async (tx) => {
      const created = await ensureGroup(tx, name, now);
      if (created) await appendAudit(tx, now, { type: 'group.added', actor, data: { name } });
      return { created };
    });
  }

  async removeGroup(name: string, actor = 'admin'): Promise<void> {
    const now = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      const inUse = (await listDecisionRules(tx)).filter(
        (r) => r.groups.includes(name) || r.escalateTo === name,
      );
      if (inUse.length > 0)
        throw new HubRefusal(
          409,
          `group ${name} is named by team rule ${inUse.map((r) => r.ruleId).join(', ')}: remove the rule first`,
        );
      if (!(await deleteGroup(tx, name))) throw new HubRefusal(404, `no group named ${name}`);
      await appendAudit(tx, now, { type: 'group.removed', actor, data: { name } });
    });
  }

  async addMember(group: string, personName: string, actor = 'admin'): Promise<void> {
    const now = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      const person = await personByName(tx, personName);
      if (!person) throw new HubRefusal(404, `no person named ${personName}`);
      await addMember(tx, { group, personId: person.personId, source: 'hub', now });
      await appendAudit(tx, now, {
        type: 'group.member_added',
        actor,
        data: { group, person: personName, source: 'hub' },
      });
    });
  }

  /** Takes out what an admin gave; a membership the identity provider names stays its own. */
  async removeMember(group: string, personName: string, actor = 'admin'): Promise<void> {
    const now = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      const person = await personByName(tx, personName);
      if (!person) throw new HubRefusal(404, `no person named ${personName}`);
      const removed = await removeMember(tx, { group, personId: person.personId, source: 'hub' });
      if (!removed)
        throw new HubRefusal(404, `${personName} is not in ${group} by the hub's own membership`);
      await appendAudit(tx, now, {
        type: 'group.member_removed',
        actor,
        data: { group, person: personName, source: 'hub' },
      });
    });
  }

  rules(): Promise<DecisionRule[]> {
    return listDecisionRules(this.d.db);
  }

  /** Adds a rule; every group it names must exist (a typo would give a rule nobody can meet). */
  async addRule(input: unknown, actor = 'admin'): Promise<DecisionRule> {
    const draft = DecisionRuleDraft.parse(input);
    const now = this.d.clock.now();
    const rule: DecisionRule = {
      ...draft,
      ruleId: `tr_${randomBytes(6).toString('hex')}`,
      approvals: draft.approvals,
      excludeOwner: draft.excludeOwner,
      createdAt: now,
    };
    return this.d.db.transaction(async (tx) => {
      const known = new Set((await listGroups(tx)).map((g) => g.name));
      const missing = [...rule.groups, ...(rule.escalateTo ? [rule.escalateTo] : [])].filter(
        (g) => !known.has(g),
      );
      if (missing.length > 0)
        throw new HubRefusal(
          404,
          `no group named ${missing.join(', ')} (gatehouse hub group add ${missing[0]})`,
        );
      await insertDecisionRule(tx, rule);
      await appendAudit(tx, now, {
        type: 'decision_rule.added',
        actor,
        data: { ...rule, text: describeRule(rule) },
      });
      return rule;
    });
  }

  async removeRule(ruleId: string, actor = 'admin'): Promise<void> {
    const now = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      if (!(await deleteDecisionRule(tx, ruleId)))
        throw new HubRefusal(404, `no team rule ${ruleId}`);
      await appendAudit(tx, now, { type: 'decision_rule.removed', actor, data: { ruleId } });
    });
  }

  /**
   * What the team's rules mean for this person and each request (by index; undefined where no
   * rule governs it). The rules are read once: a dashboard reloads its list every few seconds.
   */
  async viewsFor(
    person: Person,
    requests: readonly HubRequest[],
    machineOf: (name: string) => Pick<MachineRow, 'name' | 'owner'>,
  ): Promise<(HubTeamView | undefined)[]> {
    const rules = await listDecisionRules(this.d.db);
    if (rules.length === 0) return requests.map(() => undefined);
    const views: (HubTeamView | undefined)[] = [];
    for (const r of requests)
      views.push(await this.viewFor(person, r, machineOf(r.machineName), rules));
    return views;
  }

  /** What the team's rules mean for this person and this request; undefined when no rule governs it. */
  async viewFor(
    person: Person,
    request: HubRequest,
    machine: Pick<MachineRow, 'name' | 'owner'>,
    rules?: readonly DecisionRule[],
  ): Promise<HubTeamView | undefined> {
    const governed = await ruleFor(this.d.db, request, rules);
    if (!governed) return undefined;
    const why = await whyNot(this.d.db, person, governed, machine);
    const state = await quorumState(this.d.db, request, governed, machine);
    const voted = state.votes.find((v) => v.personId === person.personId);
    return {
      rule: governed.rule.ruleId,
      text: describeRule(governed.rule),
      groups: governed.groups,
      approvals: state.approvals,
      needed: state.needed,
      mayDecide: why === undefined && voted === undefined,
      ...(why
        ? { why }
        : voted
          ? { why: `you already voted (${voted.vote}); a person counts once` }
          : {}),
    };
  }
}
