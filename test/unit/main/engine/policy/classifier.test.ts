import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyAction } from '../../../../../main/engine/policy/classifier';
import { EngineHarness } from '../../../../support/engine-harness';

describe('classification', () => {
  it('uses the default table, and unknown actions ask', () => {
    const ctx = { rules: [] };
    expect(classifyAction({ action: 'read_file' }, ctx)).toMatchObject({
      tier: 'auto',
      rule: 'default:read_file',
    });
    expect(classifyAction({ action: 'run_tests' }, ctx).tier).toBe('auto');
    for (const a of [
      'send_email',
      'git_push',
      'create_pull_request',
      'deploy',
      'install_package',
      'delete_files',
      'purchase',
    ]) {
      expect(classifyAction({ action: a }, ctx)).toMatchObject({
        tier: 'ask',
        rule: `default:${a}`,
      });
    }
    expect(classifyAction({ action: 'teleport' }, ctx)).toMatchObject({
      tier: 'ask',
      rule: 'default:unknown',
    });
  });

  it('user rules promote and demote; project-scoped and targeted rules win over global ones', () => {
    const rule = (over: object) => ({
      ruleId: 'r',
      action: 'run_tests',
      tier: 'ask' as const,
      source: 'user' as const,
      createdAt: '2026-01-01T00:00:00Z',
      ...over,
    });
    const rules = [rule({ ruleId: 'g' }), rule({ ruleId: 'p', tier: 'auto', project: '/p' })];
    expect(classifyAction({ action: 'run_tests' }, { rules })).toMatchObject({
      tier: 'ask',
      rule: 'user:g',
    });
    expect(classifyAction({ action: 'run_tests' }, { rules, project: '/p' })).toMatchObject({
      tier: 'auto',
      rule: 'user:p',
    });
    const push = [rule({ ruleId: 'o', action: 'git_push', tier: 'auto', target: 'origin' })];
    expect(classifyAction({ action: 'git_push', target: 'origin' }, { rules: push }).tier).toBe(
      'auto',
    );
    expect(classifyAction({ action: 'git_push', target: 'fork' }, { rules: push }).tier).toBe(
      'ask',
    );
  });
});

describe('project policy (.gatehouse.toml)', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  const TOML = `
[rules]
allow_without_permission = ["create_pull_request"]
require_permission = ["run_tests"]

[policy]
allowed_files = ["src/**", "README.md"]
allowed_commands = ["npm test"]
blocked_commands = ["git push --force", "rm -rf"]
max_risk = "medium"
`;

  it('applies the project rules and the policy gate of a trusted file, naming the rule', () => {
    const project = h.project(TOML);
    h.trust(project);
    const a = h.hello('agent', { project });
    const c = (p: Parameters<typeof h.engine.classify>[1]) => h.engine.classify(a, p);
    expect(c({ action: 'create_pull_request' })).toMatchObject({
      tier: 'auto',
      rule: 'project:allow_without_permission',
    });
    expect(c({ action: 'run_tests' })).toMatchObject({
      tier: 'ask',
      rule: 'project:require_permission',
    });
    expect(c({ action: 'run_command', command: 'npm   test' })).toMatchObject({
      tier: 'auto',
      rule: 'policy:allowed_commands',
    });
    expect(c({ action: 'run_command', command: 'sudo RM -RF /' })).toMatchObject({
      tier: 'ask',
      rule: 'policy:blocked_commands',
    });
    expect(c({ action: 'read_file', risk: 'high' })).toMatchObject({
      tier: 'ask',
      rule: 'policy:max_risk',
    });
    expect(c({ action: 'read_file', risk: 'medium' }).tier).toBe('auto');
    expect(c({ action: 'read_file', paths: ['/etc/passwd'] })).toMatchObject({
      tier: 'ask',
      rule: 'policy:allowed_files',
    });
    expect(c({ action: 'read_file', paths: ['src/../../secret'] }).rule).toBe(
      'policy:allowed_files',
    );
    expect(c({ action: 'write_file', paths: [`${project}/src/a.ts`, 'README.md'] })).toMatchObject({
      tier: 'auto',
      rule: 'policy:allowed_files',
    });
    expect(c({ action: 'write_file', paths: ['package.json'] })).toMatchObject({
      tier: 'ask',
      rule: 'policy:allowed_files',
    });
  });

  it('rejects a broken policy file with a clear error instead of ignoring it', () => {
    const project = h.project('[policy]\nmax_risk = "extreme"\n');
    const a = h.hello('agent', { project });
    expect(() => h.engine.classify(a, { action: 'read_file' })).toThrow(/max_risk/);
    const notToml = h.project('this is = = not toml');
    const b = h.hello('agent', { project: notToml });
    expect(() => h.engine.classify(b, { action: 'read_file' })).toThrow(/not valid TOML/);
  });
});
