import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../../../../../shared/protocol/method-map';
import { claudeCodeAdapter } from '../../../../../../shared/node/hooks/claude-code/adapter';
import { codexAdapter } from '../../../../../../shared/node/hooks/codex/adapter';
import { cursorAdapter } from '../../../../../../shared/node/hooks/cursor/adapter';
import { geminiAdapter } from '../../../../../../shared/node/hooks/gemini/adapter';
import { opencodeAdapter } from '../../../../../../shared/node/hooks/opencode/adapter';
import { decideToolCall, type HookLink } from '../../../../../../shared/node/hooks/relay/decide';
import type { AgentAdapter, ToolCallEvent } from '../../../../../../shared/node/hooks/relay/types';

/**
 * An approval of an edited call reaches the agent as the edited call or not at all: an
 * adapter whose agent runs edited input answers with it; any other refuses the call, since
 * its agent would run its own call instead of the one the person approved.
 */
const edited: AgentResult<'gate'> = {
  outcome: 'allow',
  reason: 'Gatehouse: git_push approved by human (req-1): the person edited the call',
  actions: [],
  updatedInput: { command: 'git push origin feature' },
};

const linkAnswering = (answer: AgentResult<'gate'>): HookLink => ({
  greeted: Promise.resolve(),
  gate: () => Promise.resolve(answer),
  cancel: () => Promise.resolve({ status: 'cancelled' }),
  log: () => Promise.resolve({ ok: true }),
  note: () => Promise.resolve({}),
  end: () => Promise.reject(new Error('not used')),
  close: () => undefined,
});

const decide = (adapter: AgentAdapter, event: string) => {
  const call: ToolCallEvent = {
    kind: 'tool',
    event,
    sessionId: 's',
    tool: 'Bash',
    input: { command: 'git push origin main' },
  };
  return decideToolCall(call, {
    adapter,
    config: {
      agent: adapter.agent,
      waitMs: 1000,
      fallback: 'deny',
      warnings: [],
      secretVariables: [],
    },
    connect: () => Promise.resolve(linkAnswering(edited)),
    env: {},
  });
};

describe('an approved edited call in the hook relay', () => {
  it("is Claude Code's PreToolUse allow with updatedInput", async () => {
    const { decision } = await decide(claudeCodeAdapter, 'PreToolUse');
    expect(decision).toEqual({
      behavior: 'allow',
      reason: edited.reason,
      updatedInput: { command: 'git push origin feature' },
    });
    expect(claudeCodeAdapter.answer('PreToolUse', decision!)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: edited.reason,
        updatedInput: { command: 'git push origin feature' },
      },
    });
  });

  it("is OpenCode's allow with the args its plugin puts in place of the call's", async () => {
    const { decision } = await decide(opencodeAdapter, 'tool.execute.before');
    expect(opencodeAdapter.answer('tool.execute.before', decision!)).toEqual({
      decision: 'allow',
      reason: edited.reason,
      args: { command: 'git push origin feature' },
    });
  });

  it("is Codex's PreToolUse allow with updatedInput", async () => {
    const { decision } = await decide(codexAdapter, 'PreToolUse');
    expect(codexAdapter.answer('PreToolUse', decision!)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: edited.reason,
        updatedInput: { command: 'git push origin feature' },
      },
    });
  });

  it("is Gemini CLI's BeforeTool allow with tool_input", async () => {
    const { decision } = await decide(geminiAdapter, 'BeforeTool');
    expect(geminiAdapter.answer('BeforeTool', decision!)).toEqual({
      decision: 'allow',
      reason: edited.reason,
      hookSpecificOutput: {
        hookEventName: 'BeforeTool',
        tool_input: { command: 'git push origin feature' },
      },
    });
  });

  it('is refused where the agent would run its own call instead', async () => {
    for (const [adapter, event] of [
      [claudeCodeAdapter, 'PermissionRequest'],
      [codexAdapter, 'PermissionRequest'],
      [cursorAdapter, 'preToolUse'],
    ] as const) {
      const { decision } = await decide(adapter, event);
      expect(decision?.behavior, `${adapter.agent} ${event}`).toBe('deny');
      expect(decision?.reason).toMatch(/edited call that .* cannot run here/);
    }
  });
});
