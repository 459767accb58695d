import { describe, expect, it } from 'vitest';
import type { RuleRecord } from '../../../../../shared/domain';
import type { TeamRule } from '../../../../../shared/policy/team-policy';
import { classifyAction } from '../../../../../main/engine/policy/classifier';
import type { ProjectPolicy } from '../../../../../main/engine/policy/project-policy';
import { shadowDifferences } from '../../../../../main/engine/policy/team-rules';
import { grantsLocked } from '../../../../../main/engine/requests/grant-use';
import { provenanceOfRequest, provenanceOfRule, ruleOf } from '../../../../../shared/provenance';

const project = '/srv/app';
const push = { action: 'git_push', command: 'git push origin main' };
const teamRule = (over: Partial<TeamRule>): TeamRule => ({
  ruleId: 'tr-aaaa1',
  action: 'git_push',
  tier: 'ask',
  mode: 'enforce',
  ...over,
});
const team = (...rules: TeamRule[]) => ({ version: 7, rules });
const userAuto: RuleRecord = {
  ruleId: 'r1',
  action: 'git_push',
  tier: 'auto',
  source: 'user',
  command: 'git push origin main',
  createdAt: '2026-01-01T00:00:00Z',
};
const trustedFile: ProjectPolicy = {
  file: `${project}/.gatehouse.toml`,
  dir: project,
  sha256: 'x',
  policy: {
    rules: { allow_without_permission: ['git_push'], require_permission: [] },
    policy: { allowed_commands: ['git push origin main'], blocked_commands: [] },
    automation: { allow_auto_promotion: true },
  },
};

describe('team rules outrank the machine: they ask or deny before anything local is read', () => {
  it('without a team rule, the user rule and the trusted file let the push through', () => {
    expect(classifyAction(push, { rules: [userAuto], project }).tier).toBe('auto');
    expect(
      classifyAction(push, {
        rules: [],
        project,
        projectPolicy: trustedFile,
        projectTrust: 'trusted',
      }).tier,
    ).toBe('auto');
  });

  it('a team ask asks whatever the user rule, an "always" rule and a trusted file say', () => {
    const c = classifyAction(push, {
      rules: [userAuto, { ...userAuto, ruleId: 'r2', source: 'decision' }],
      project,
      projectPolicy: trustedFile,
      projectTrust: 'trusted',
      team: team(teamRule({ note: 'pushes need a person' })),
    });
    expect(c).toEqual({
      tier: 'ask',
      rule: 'team:v7:tr-aaaa1',
      reason: expect.stringContaining('always asks by team policy v7 (tr-aaaa1') as string,
    });
    expect(c.reason).toContain('pushes need a person');
    expect(c.deny).toBeUndefined();
  });

  it('a deny outranks an ask of the team; the matchers narrow as in user rules', () => {
    const t = team(
      teamRule({}),
      teamRule({ ruleId: 'tr-bbbb2', tier: 'deny', commandPrefix: 'git push --force' }),
    );
    expect(
      classifyAction(
        { ...push, command: 'git push --force origin' },
        { rules: [], project, team: t },
      ),
    ).toMatchObject({ tier: 'ask', deny: true, rule: 'team:v7:tr-bbbb2' });
    expect(classifyAction(push, { rules: [], project, team: t })).toMatchObject({
      rule: 'team:v7:tr-aaaa1',
    });
    // Another project, or another action, is not the team rule's.
    const scoped = team(teamRule({ project: '/srv/other' }));
    expect(classifyAction(push, { rules: [userAuto], project, team: scoped }).tier).toBe('auto');
    expect(
      classifyAction({ action: 'read_file', paths: ['a'] }, { rules: [], project, team: t }).rule,
    ).not.toMatch(/^team:/);
  });

  it('a shadow rule decides nothing', () => {
    const c = classifyAction(push, {
      rules: [userAuto],
      project,
      team: team(teamRule({ mode: 'shadow' })),
    });
    expect(c).toMatchObject({ tier: 'auto', rule: 'user:r1' });
  });

  it('a team rule locks grants and the ladder like a protected path: only a late approval', () => {
    expect(grantsLocked('team:v7:tr-aaaa1')).toBe(true);
    expect(grantsLocked('user:r1')).toBe(false);
  });

  it('names the team policy version in the provenance, and back', () => {
    const p = provenanceOfRule('team:v7:tr-aaaa1');
    expect(p).toEqual({ kind: 'team', version: 7, ruleId: 'tr-aaaa1' });
    expect(ruleOf(p)).toBe('team:v7:tr-aaaa1');
    expect(
      provenanceOfRequest({ status: 'denied', rule: 'team:v7:tr-aaaa1', decidedBy: 'rule' }),
    ).toEqual({ kind: 'team', version: 7, ruleId: 'tr-aaaa1' });
    // A user's rule stays a rule.
    expect(provenanceOfRequest({ status: 'approved', rule: 'user:r1', decidedBy: 'rule' })).toEqual(
      {
        kind: 'rule',
        rule: 'user:r1',
      },
    );
  });
});

describe('shadow differences: what a shadow rule would have changed', () => {
  const shadowAsk = team(teamRule({ mode: 'shadow' }));
  const shadowDeny = team(teamRule({ mode: 'shadow', tier: 'deny' }));

  it('an ask differs from a call let through, not from one that asked', () => {
    expect(
      shadowDifferences(push, { tier: 'auto', rule: 'user:r1', reason: '' }, shadowAsk, project),
    ).toEqual([
      {
        ruleId: 'tr-aaaa1',
        version: 7,
        action: 'git_push',
        would: 'ask',
        actual: 'auto',
        summary: 'git push origin main',
      },
    ]);
    expect(
      shadowDifferences(
        push,
        { tier: 'ask', rule: 'default:git_push', reason: '' },
        shadowAsk,
        project,
      ),
    ).toEqual([]);
  });

  it('a deny differs from an ask and from auto, not from a deny', () => {
    for (const tier of ['ask', 'auto'] as const)
      expect(
        shadowDifferences(push, { tier, rule: 'x', reason: '' }, shadowDeny, project).map(
          (d) => d.actual,
        ),
      ).toEqual([tier]);
    expect(
      shadowDifferences(
        push,
        { tier: 'ask', deny: true, rule: 'x', reason: '' },
        shadowDeny,
        project,
      ),
    ).toEqual([]);
  });

  it('the example a record carries to the hub has its secrets masked, before it is cut', () => {
    const token = 'ghp_SHADOWTOKENSHADOWTOKEN0123456789';
    // The token straddles the 300th character: cut first, its tail would go unrecognised.
    const command = `git push ${'x'.repeat(271)} https://${token}@example.com/repo main`;
    const [d] = shadowDifferences(
      { action: 'git_push', command },
      { tier: 'auto', rule: 'x', reason: '' },
      shadowAsk,
      project,
    );
    expect(command.indexOf(token)).toBeLessThan(300);
    expect(command.indexOf(token) + token.length).toBeGreaterThan(300);
    expect(d!.summary).not.toContain('SHADOW');
    expect(d!.summary).toHaveLength(300);
    expect(d!.summary.endsWith(' https://ghp_…[maske')).toBe(true);
  });

  it('enforced rules and other actions are no shadow', () => {
    expect(
      shadowDifferences(push, { tier: 'auto', rule: 'x', reason: '' }, team(teamRule({})), project),
    ).toEqual([]);
    expect(
      shadowDifferences(
        { action: 'deploy' },
        { tier: 'auto', rule: 'x', reason: '' },
        shadowAsk,
        project,
      ),
    ).toEqual([]);
  });
});
