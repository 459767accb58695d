import { describe, expect, it } from 'vitest';
import {
  GuardStoppedError,
  guardLLMCall,
  type GuardClient,
} from '../../../../clients/sdk/guard-chain';
import { ToolExecutionGuard } from '../../../../clients/sdk/tool-guard';
import type { Verdict } from '../../../../shared/domain';
import { FakeClock } from '../../../support/fake-clock';

function fakeClient(allowed = true, verdicts: Verdict[] = []) {
  const calls: [string, Record<string, unknown>][] = [];
  const client: GuardClient = {
    check: async (p) => (calls.push(['check', p]), { allowed, mode: 'normal', verdicts }),
    usage: async (p) => (
      calls.push(['usage', p]),
      { costUsd: 0.01, spent: { session: 0.01, day: 0.01 }, verdicts: [] }
    ),
    outcome: async (p) => (calls.push(['outcome', p]), { verdicts: [] }),
  };
  return { client, calls };
}

describe('guardLLMCall', () => {
  it('checks and reserves, calls, then reports usage and outcome', async () => {
    const { client, calls } = fakeClient();
    const reply = await guardLLMCall(
      client,
      { model: 'gpt-4o-mini', estimatedCostUsd: 0.02, provider: 'openai', phase: 'review' },
      async () => ({
        choices: [{ message: { content: 'looks good' } }],
        usage: { prompt_tokens: 120, completion_tokens: 30 },
      }),
    );
    expect(reply.choices[0]!.message.content).toBe('looks good');
    expect(calls.map(([m]) => m)).toEqual(['check', 'usage', 'outcome']);
    expect(calls[0]![1]).toMatchObject({
      estimatedCostUsd: 0.02,
      provider: 'openai',
      phase: 'review',
    });
    expect(calls[1]![1]).toMatchObject({
      model: 'gpt-4o-mini',
      inputTokens: 120,
      outputTokens: 30,
      phase: 'review',
    });
    expect(calls[2]![1]).toMatchObject({
      ok: true,
      source: 'llm',
      provider: 'openai',
      output: 'looks good',
    });
  });

  it('does not call the model when a guard says stop', async () => {
    const stop: Verdict = {
      breaker: 'budget',
      state: 'open',
      tripped: true,
      warning: false,
      reason: 'DAILY_BUDGET_EXCEEDED',
      current: 51,
      threshold: 50,
    };
    const { client, calls } = fakeClient(false, [stop]);
    let called = false;
    const error = await guardLLMCall(client, { model: 'm' }, async () => (called = true)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GuardStoppedError);
    expect((error as GuardStoppedError).reasons).toEqual(['DAILY_BUDGET_EXCEEDED']);
    expect(called).toBe(false);
    expect(calls.map(([m]) => m)).toEqual(['check']);
  });

  it('reports a failed call with its HTTP status and rethrows it', async () => {
    const { client, calls } = fakeClient();
    const failure = Object.assign(new Error('Rate limit reached'), { status: 429 });
    await expect(
      guardLLMCall(client, { model: 'm', provider: 'anthropic' }, async () =>
        Promise.reject(failure),
      ),
    ).rejects.toBe(failure);
    expect(calls[1]).toEqual([
      'outcome',
      expect.objectContaining({
        ok: false,
        httpStatus: 429,
        provider: 'anthropic',
        message: 'Rate limit reached',
      }),
    ]);
  });
});

describe('ToolExecutionGuard', () => {
  it('times a hanging tool out and aborts its signal', async () => {
    const clock = new FakeClock();
    const guard = new ToolExecutionGuard({ clock, toolTimeouts: { search: 5_000 } });
    let aborted = false;
    const pending = guard.execute(
      'search',
      (signal) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => ((aborted = true), reject(signal.reason)));
        }),
    );
    clock.advance(5_000);
    const result = await pending;
    expect(result).toMatchObject({ success: false, timedOut: true, refused: false });
    expect(aborted).toBe(true);
    expect(guard.getToolHealth('search')).toMatchObject({
      totalCalls: 1,
      failures: 1,
      timeouts: 1,
    });
  });

  it('opens a per-tool breaker after repeated failures, leaving other tools alone', async () => {
    const clock = new FakeClock();
    const guard = new ToolExecutionGuard({
      clock,
      circuit: { failureThreshold: 2, cooldownMs: 1_000 },
    });
    const fail = async () => Promise.reject(new Error('500'));
    await guard.execute('flaky', fail);
    await guard.execute('flaky', fail);
    let ran = false;
    expect(await guard.execute('flaky', async () => (ran = true))).toMatchObject({
      success: false,
      refused: true,
    });
    expect(ran).toBe(false);
    expect(await guard.execute('calc', async () => 4)).toMatchObject({ success: true, result: 4 });
    clock.advance(1_000);
    expect(guard.getToolHealth('flaky').circuitState).toBe('half_open');
    expect(await guard.execute('flaky', async () => 'back')).toMatchObject({ success: true });
  });

  it('asks Gatehouse first and reports outcomes when given a client', async () => {
    const { client, calls } = fakeClient();
    const guard = new ToolExecutionGuard({ client, clock: new FakeClock() });
    await guard.execute('web_search', async () => 'ok');
    expect(calls.map(([m, p]) => `${m}:${String(p.tool)}`)).toEqual([
      'check:web_search',
      'outcome:web_search',
    ]);
    const refusing = new ToolExecutionGuard({
      client: fakeClient(false).client,
      clock: new FakeClock(),
    });
    expect(await refusing.execute('deploy', async () => 1)).toMatchObject({
      success: false,
      refused: true,
    });
  });
});
