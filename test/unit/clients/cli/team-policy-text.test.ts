import { describe, expect, it } from 'vitest';
import { ruleMatchesText, teamRulesTable } from '../../../../clients/cli/team-policy-text';
import type { TeamRule } from '../../../../shared/policy/team-policy';

const rules: TeamRule[] = [
  {
    ruleId: 'tr-push1',
    action: 'git_push',
    tier: 'ask',
    mode: 'enforce',
    commandPrefix: 'git push',
    project: '/srv/web',
    note: 'review pushes',
  },
  { ruleId: 'tr-deploy', action: 'deploy', tier: 'deny', mode: 'shadow' },
];

/** The rule tables of `gatehouse rules` (a machine's team rules) and `gatehouse hub policy list`. */
describe('team rules as the CLI shows them', () => {
  it("names each of a rule's matchers, and what it says for a rule without any", () => {
    expect(
      ruleMatchesText(
        { command: 'npm publish', target: 'registry', paths: ['src/**', 'docs/**'] },
        '(action-wide)',
      ),
    ).toBe('command `npm publish`; target registry; paths src/**, docs/**');
    expect(ruleMatchesText({ commandPrefix: 'git push' }, '(all)')).toBe('command `git push:*`');
    expect(ruleMatchesText({}, '(action-wide)')).toBe('(action-wide)');
    expect(ruleMatchesText({}, '(all)')).toBe('(all)');
  });

  it('lays the team rules out in one table, headed as each command heads it', () => {
    const lines = teamRulesTable('TEAM RULE', rules, '(action-wide)').split('\n');
    expect(lines[0]).toMatch(/^TEAM RULE +ACTION +TIER +MATCHES +PROJECT +MODE +NOTE$/);
    expect(lines[1]).toMatch(
      /^tr-push1 +git_push +ask +command `git push:\*` +\/srv\/web +enforce +review pushes$/,
    );
    expect(lines[2]).toMatch(/^tr-deploy +deploy +deny +\(action-wide\) +\(all\) +shadow *$/);
    expect(teamRulesTable('ID', rules, '(all)').split('\n')[0]).toMatch(/^ID +ACTION/);
  });
});
