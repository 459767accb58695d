import { describe, expect, it } from 'vitest';
import { mayLeaveSandbox } from '../../../../../main/engine/requests/outside-sandbox';

const act = (rule: string, tier: 'auto' | 'ask' = 'auto') => ({ action: 'x', tier, rule });

describe('which allowed calls may run outside the sandbox', () => {
  it("a person's approval or grant lifts it", () => {
    expect(mayLeaveSandbox([act('default:git_push', 'ask')], 'human')).toBe(true);
    expect(mayLeaveSandbox([act('protected:leave_sandbox', 'ask')], 'human')).toBe(true);
    expect(mayLeaveSandbox([act('grant:g1')], 'grant')).toBe(true);
  });

  it("a person's rule lifts it when the rest is the built-in table's auto", () => {
    expect(mayLeaveSandbox([act('user:r1'), act('default:read_file')], 'rule')).toBe(true);
    expect(mayLeaveSandbox([act('decision:r2')], 'rule')).toBe(true);
  });

  it("Gatehouse's own table, the ladder and a project file keep it", () => {
    expect(mayLeaveSandbox([act('default:read_file')], 'policy')).toBe(false);
    expect(mayLeaveSandbox([act('ladder:level-2')], 'policy')).toBe(false);
    expect(mayLeaveSandbox([act('project:allow_without_permission')], 'rule')).toBe(false);
    expect(mayLeaveSandbox([act('policy:allowed_files')], 'policy')).toBe(false);
    expect(mayLeaveSandbox([act('user:r1'), act('project:allow_without_permission')], 'rule')).toBe(
      false,
    );
    expect(mayLeaveSandbox([], undefined)).toBe(false);
  });

  it("where the sandbox is what hides Gatehouse's files, even a person's approval keeps it", () => {
    for (const rule of [
      'protected:gatehouse',
      'protected:unresolved_path',
      'protected:too_large',
      'protected:special_file',
      'shell:opaque',
    ])
      expect(mayLeaveSandbox([act(rule, 'ask')], 'human')).toBe(false);
  });
});
