import { describe, expect, it } from 'vitest';
import type { RuleRecord } from '../../../../../shared/domain';
import { classifyAction } from '../../../../../main/engine/policy/classifier';

const project = '/srv/app';
const command = 'git push origin main';
const escape = { action: 'leave_sandbox', target: command, command };
const rule = (over: Partial<RuleRecord>): RuleRecord => ({
  ruleId: 'r1',
  action: 'leave_sandbox',
  tier: 'auto',
  source: 'user',
  createdAt: '2026-01-01T00:00:00Z',
  ...over,
});

describe('leave_sandbox: only a person lets a call out of the sandbox', () => {
  it('asks, critical, naming why, with no rule', () => {
    expect(classifyAction(escape, { rules: [], project })).toEqual({
      tier: 'ask',
      rule: 'protected:leave_sandbox',
      risk: 'critical',
      reason: expect.stringMatching(/^asks to run outside Claude Code's sandbox/) as string,
    });
  });

  it("a person's rule for exactly that command allows it", () => {
    const c = classifyAction(escape, {
      rules: [rule({ command: 'git  push origin main' })],
      project,
    });
    expect(c).toMatchObject({ tier: 'auto', rule: 'user:r1' });
    // In its project only.
    expect(
      classifyAction(escape, { rules: [rule({ command, project: '/srv/other' })], project }).tier,
    ).toBe('ask');
  });

  it.each([
    ['a rule for every command', rule({})],
    ['a command prefix', rule({ commandPrefix: 'git push:*' })],
    ['a target only', rule({ target: command })],
    ['an "always" decision', rule({ command, source: 'decision' })],
    ['a rule for another command', rule({ command: 'git push origin prod' })],
    ['a rule for another action', rule({ command, action: 'git_push' })],
  ])('%s does not', (_what, r) => {
    expect(classifyAction(escape, { rules: [r], project })).toMatchObject({
      tier: 'ask',
      rule: 'protected:leave_sandbox',
    });
  });
});
