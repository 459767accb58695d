import { describe, expect, it } from 'vitest';
import {
  DecisionRuleDraft,
  describeRule,
  governingRule,
  ruleMatches,
  type DecisionRule,
} from '../../../shared/hub-decision-rules';

const rule = (o: Partial<DecisionRule> & { ruleId: string }): DecisionRule => ({
  groups: ['ops'],
  approvals: 1,
  excludeOwner: false,
  createdAt: 1,
  ...o,
});

const deployProd = {
  machine: 'laptop',
  action: 'deploy',
  agent: 'builder',
  project: '/srv/prod',
  risk: 'high' as const,
};

describe('team decision rules', () => {
  it('matches by every field it sets: action, risk at least, project path or name, machine, agent', () => {
    expect(ruleMatches(rule({ ruleId: 'a', action: 'deploy' }), deployProd)).toBe(true);
    expect(ruleMatches(rule({ ruleId: 'a', action: 'git_push' }), deployProd)).toBe(false);
    expect(ruleMatches(rule({ ruleId: 'r', minRisk: 'high' }), deployProd)).toBe(true);
    expect(ruleMatches(rule({ ruleId: 'r', minRisk: 'critical' }), deployProd)).toBe(false);
    // A request without a risk counts as low: a risk rule above low does not match it.
    expect(
      ruleMatches(rule({ ruleId: 'r', minRisk: 'medium' }), { ...deployProd, risk: undefined }),
    ).toBe(false);
    expect(ruleMatches(rule({ ruleId: 'p', project: 'prod' }), deployProd)).toBe(true);
    expect(ruleMatches(rule({ ruleId: 'p', project: '/srv/prod' }), deployProd)).toBe(true);
    expect(
      ruleMatches(rule({ ruleId: 'p', project: 'prod' }), {
        ...deployProd,
        project: '/srv/prod-old',
      }),
    ).toBe(false);
    expect(
      ruleMatches(rule({ ruleId: 'p', project: 'prod' }), { ...deployProd, project: undefined }),
    ).toBe(false);
    expect(ruleMatches(rule({ ruleId: 'm', machine: 'ci' }), deployProd)).toBe(false);
    expect(ruleMatches(rule({ ruleId: 'g', agent: 'builder' }), deployProd)).toBe(true);
    expect(ruleMatches(rule({ ruleId: 'any' }), deployProd)).toBe(true);
  });

  it('takes the strictest matching rule, so a looser rule added later never widens one', () => {
    const twoFromOps = rule({ ruleId: 'two', action: 'deploy', approvals: 2, createdAt: 5 });
    const anyoneOnce = rule({ ruleId: 'loose', groups: ['everyone'], createdAt: 9 });
    const ownerOut = rule({
      ruleId: 'owner',
      action: 'deploy',
      approvals: 2,
      excludeOwner: true,
      createdAt: 7,
    });
    expect(governingRule([anyoneOnce, twoFromOps], deployProd)?.ruleId).toBe('two');
    expect(governingRule([anyoneOnce, twoFromOps, ownerOut], deployProd)?.ruleId).toBe('owner');
    expect(governingRule([twoFromOps], { ...deployProd, action: 'git_push' })).toBeUndefined();
  });

  it('validates what an admin writes', () => {
    expect(DecisionRuleDraft.parse({ action: 'deploy', groups: ['ops'] })).toEqual({
      action: 'deploy',
      groups: ['ops'],
      approvals: 1,
      excludeOwner: false,
    });
    const refused = [
      { groups: [] },
      { groups: ['ops'], approvals: 0 },
      { groups: ['ops'], approvals: 11 },
      { groups: ['o ps'] },
      { groups: ['ops'], minRisk: 'extreme' },
      { groups: ['ops'], project: '/srv/*' },
      { groups: ['ops'], escalateTo: 'leads' },
      { groups: ['ops'], escalateAfterMinutes: 10 },
      { groups: ['ops'], escalateAfterMinutes: 10, escalateTo: 'ops' },
      { groups: ['ops'], surprise: true },
    ];
    for (const r of refused)
      expect(DecisionRuleDraft.safeParse(r).success, JSON.stringify(r)).toBe(false);
  });

  it('says in words what a rule matches and asks for', () => {
    expect(
      describeRule(
        rule({
          ruleId: 'x',
          action: 'deploy',
          project: 'prod',
          approvals: 2,
          excludeOwner: true,
          escalateAfterMinutes: 30,
          escalateTo: 'leads',
        }),
      ),
    ).toBe(
      "action deploy, project prod: 2 approvals from ops, not the machine's owner; after 30 min without a decision, also leads",
    );
  });
});
