import { describe, expect, it } from 'vitest';
import { answerFor } from '../../../../../../shared/node/hooks/claude-code/answer';
import { claudeSandboxInput } from '../../../../../../shared/node/hooks/claude-code/sandbox';

describe("Claude Code's input for an allowed call", () => {
  it("a person's allow takes a Bash call out of the sandbox", () => {
    expect(claudeSandboxInput('Bash', { command: 'git push', timeout: 5 }, true)).toEqual({
      command: 'git push',
      timeout: 5,
      dangerouslyDisableSandbox: true,
    });
  });

  it("any other allow leaves the input alone, or takes out the agent's own request", () => {
    expect(claudeSandboxInput('Bash', { command: 'ls' }, false)).toBeUndefined();
    expect(
      claudeSandboxInput('Bash', { command: 'ls', dangerouslyDisableSandbox: true }, false),
    ).toEqual({ command: 'ls' });
    expect(claudeSandboxInput('Read', { file_path: '/a' }, true)).toBeUndefined();
    expect(
      claudeSandboxInput('Read', { file_path: '/a', dangerouslyDisableSandbox: 'true' }, true),
    ).toEqual({ file_path: '/a' });
  });

  it('the hook answer carries it as updatedInput on allow (PreToolUse and PermissionRequest)', () => {
    const updatedInput = { command: 'git push', dangerouslyDisableSandbox: true };
    expect(answerFor('PreToolUse', { behavior: 'allow', reason: 'ok', updatedInput })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'ok',
        updatedInput,
      },
    });
    expect(
      answerFor('PermissionRequest', { behavior: 'allow', reason: 'ok', updatedInput }),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput },
      },
    });
    // Never on a deny or an ask.
    expect(
      JSON.stringify(answerFor('PreToolUse', { behavior: 'deny', reason: 'no', updatedInput })),
    ).not.toContain('updatedInput');
  });
});
