import { describe, expect, it } from 'vitest';
import type { AgentParams, AgentResult } from '../../../../../../shared/protocol/method-map';
import { claudeCodeAdapter } from '../../../../../../shared/node/hooks/claude-code/adapter';
import { codexAdapter } from '../../../../../../shared/node/hooks/codex/adapter';
import { copilotAdapter } from '../../../../../../shared/node/hooks/copilot/adapter';
import { geminiAdapter } from '../../../../../../shared/node/hooks/gemini/adapter';
import { opencodeAdapter } from '../../../../../../shared/node/hooks/opencode/adapter';
import { decideToolCall, type HookLink } from '../../../../../../shared/node/hooks/relay/decide';
import type { ToolCallEvent } from '../../../../../../shared/node/hooks/relay/types';

/**
 * A person's approval, with their note in its reason, is marked as theirs so an adapter can
 * pass the note to the model; an allow by policy, a rule or a grant is not (its reason is
 * Gatehouse's bookkeeping, not something the person said).
 */
const linkAnswering = (answer: AgentResult<'gate'>): HookLink => ({
  greeted: Promise.resolve(),
  gate: () => Promise.resolve(answer),
  cancel: () => Promise.resolve({ status: 'cancelled' }),
  log: () => Promise.resolve({ ok: true }),
  note: () => Promise.resolve({}),
  end: () => Promise.reject(new Error('not used')),
  close: () => undefined,
});

const call: ToolCallEvent = {
  kind: 'tool',
  event: 'PreToolUse',
  sessionId: 's',
  tool: 'Bash',
  input: { command: 'git push origin main' },
};

const decide = (answer: AgentResult<'gate'>) =>
  decideToolCall(call, {
    adapter: codexAdapter,
    config: { agent: 'codex', waitMs: 1000, fallback: 'deny', warnings: [], secretVariables: [] },
    connect: () => Promise.resolve(linkAnswering(answer)),
    env: {},
  });

describe("an approval's note in the hook relay", () => {
  it("is a person's: marked byPerson, and Codex passes it to the model as additionalContext", async () => {
    const reason = 'Gatehouse: git_push approved by human (req-1): push once, then open the PR';
    const { decision } = await decide({
      outcome: 'allow',
      reason,
      decidedBy: 'human',
      actions: [],
    });
    expect(decision).toEqual({ behavior: 'allow', reason, byPerson: true });
    expect(codexAdapter.answer('PreToolUse', decision!)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: reason },
    });
  });

  it('is absent from an allow by policy, a rule or a grant', async () => {
    for (const decidedBy of ['policy', 'rule', 'grant'] as const) {
      const { decision } = await decide({
        outcome: 'allow',
        reason: 'auto',
        decidedBy,
        actions: [],
      });
      expect(decision, decidedBy).toEqual({ behavior: 'allow', reason: 'auto' });
      expect(codexAdapter.answer('PreToolUse', decision!)).toEqual({
        hookSpecificOutput: { hookEventName: 'PreToolUse' },
      });
    }
  });

  it("is kept by Gatehouse for the call's result only for an agent that takes it there (Gemini CLI)", async () => {
    const sent: AgentParams<'gate'>[] = [];
    for (const adapter of [geminiAdapter, codexAdapter, opencodeAdapter]) {
      await decideToolCall(call, {
        adapter,
        config: {
          agent: adapter.agent,
          waitMs: 1000,
          fallback: 'deny',
          warnings: [],
          secretVariables: [],
        },
        connect: () =>
          Promise.resolve({
            ...linkAnswering({ outcome: 'allow', reason: 'ok', actions: [] }),
            gate: (p: AgentParams<'gate'>) => {
              sent.push(p);
              return Promise.resolve({ outcome: 'allow' as const, reason: 'ok', actions: [] });
            },
          }),
        env: {},
      });
    }
    expect(sent.map((p) => p.keepNote)).toEqual([true, undefined, undefined]);
  });

  it("is each agent's field for text to the model beside an allow, where it has one", () => {
    const reason = 'Gatehouse: git_push approved by human (req-1): push once';
    const allow = { behavior: 'allow' as const, reason, byPerson: true as const };
    expect(claudeCodeAdapter.answer('PreToolUse', allow)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: reason,
        additionalContext: reason,
      },
    });
    expect(copilotAdapter.answer('preToolUse', allow)).toEqual({
      permissionDecision: 'allow',
      permissionDecisionReason: reason,
      additionalContext: reason,
    });
    expect(opencodeAdapter.answer('tool.execute.before', allow)).toEqual({
      decision: 'allow',
      reason,
      note: reason,
    });
    // Gemini CLI 0.61.0 reads no text for the model from an allowing BeforeTool answer:
    // the daemon keeps the note and the AfterTool answer carries it.
    expect(geminiAdapter.answer('BeforeTool', allow)).toEqual({ decision: 'allow', reason });
    expect(geminiAdapter.noteAnswer?.('AfterTool', reason)).toEqual({
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: reason },
    });
  });
});
