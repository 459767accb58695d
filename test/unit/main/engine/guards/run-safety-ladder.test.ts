import { describe, expect, it } from 'vitest';
import { AutomationLadder } from '../../../../../main/engine/guards/automation-ladder';
import { RunBreaker, newRunState } from '../../../../../main/engine/guards/run-breaker';
import { SafetySwitch, newSwitchState } from '../../../../../main/engine/guards/safety-switch';
import { GuardSettings } from '../../../../../shared/settings/guards';
import { FakeClock } from '../../../../support/fake-clock';

const defaults = GuardSettings.parse({});

describe('RunBreaker (seed 003)', () => {
  const clock = new FakeClock();
  const make = (over: Partial<typeof defaults.run> = {}) =>
    new RunBreaker(() => ({ ...defaults.run, ...over }), clock);

  it('stops after maxRetries + 1 failed attempts with a four-part escalation', () => {
    const run = make({ maxRepeatedErrors: 0 });
    const s = newRunState();
    for (let i = 1; i <= 3; i++)
      expect(run.recordOutcome(s, false, 'tests', `failure ${'x'.repeat(i)}`)).toEqual([]);
    const [v] = run.recordOutcome(s, false, 'tests', 'failure xxxx\n    at stack line');
    expect(v).toMatchObject({
      breaker: 'run',
      tripped: true,
      reason: 'MAX_RETRIES_EXCEEDED',
      current: 4,
      threshold: 3,
    });
    const message = v!.suggestion!;
    for (const part of [
      'What failed: failure xxxx',
      'What was tried: 4 failed attempt(s)',
      'Why it stopped:',
      'What a human should decide next:',
    ]) {
      expect(message).toContain(part);
    }
    expect(message).not.toContain('stack line');
    expect(run.check(s)[0]?.reason).toBe('MAX_RETRIES_EXCEEDED');
    run.reset(s);
    expect(run.check(s)).toEqual([]);
  });

  it('a success resets the retry count', () => {
    const run = make({ maxRepeatedErrors: 0, maxRetries: 1 });
    const s = newRunState();
    run.recordOutcome(s, false, 't', 'a');
    run.recordOutcome(s, true, 't');
    expect(run.recordOutcome(s, false, 't', 'b')).toEqual([]);
  });

  it('escalates the same error twice in a row, ignoring ids and numbers', () => {
    const run = make();
    const s = newRunState();
    run.recordOutcome(s, false, 'deploy', 'timeout after 3000 ms on host 10.0.0.1');
    const [v] = run.recordOutcome(s, false, 'deploy', 'timeout after 3100 ms on host 10.0.0.2');
    expect(v?.reason).toBe('REPEATED_ERROR_ESCALATED');
  });

  it('alternating errors are not repeated errors', () => {
    const run = make();
    const s = newRunState();
    run.recordOutcome(s, false, 't', 'error A');
    run.recordOutcome(s, false, 't', 'error B');
    expect(run.recordOutcome(s, false, 't', 'error A')).toEqual([]);
  });

  it('enforces token budgets per step and per task', () => {
    const run = make({ tokensPerStep: 1000, tokensPerTask: 2500 });
    const s = newRunState();
    expect(run.recordTokens(s, 1500)[0]?.reason).toBe('TOKEN_BUDGET_STEP_EXCEEDED');
    const t = newRunState();
    run.recordTokens(t, 900);
    run.recordTokens(t, 900);
    expect(run.recordTokens(t, 900)[0]).toMatchObject({
      reason: 'TOKEN_BUDGET_TASK_EXCEEDED',
      current: 2700,
    });
  });

  it('refuses scope changes while frozen, and has a kill switch', () => {
    expect(make().proposeScopeChange(newRunState(), 'also write docs')[0]?.reason).toBe(
      'SCOPE_FROZEN',
    );
    expect(make({ scopeFreeze: false }).proposeScopeChange(newRunState(), 'x')).toEqual([]);
    const s = newRunState();
    expect(make().kill(s, 'user pressed stop')[0]?.reason).toBe('KILL_SWITCH');
    expect(make().check(s)[0]?.suggestion).toContain('user pressed stop');
  });
});

describe('SafetySwitch (seed 004)', () => {
  const config = {
    ...defaults.safety,
    conservativeModel: 'gpt-4o-mini',
    blockedOperations: ['handoff'],
  };
  const sw = new SafetySwitch(() => config);

  it('switches to conservative mode on a rate limit and reports the restrictions', () => {
    const s = newSwitchState();
    expect(sw.onOutcome(s, 0, { ok: false, status: 429, source: 'tool' }, 100)).toEqual({
      mode: 'conservative',
      reason: 'rate_limit',
    });
    const [v] = sw.check(s);
    expect(v).toMatchObject({
      breaker: 'safety_switch',
      warning: true,
      tripped: false,
      reason: 'CONSERVATIVE_MODE',
    });
    expect(v!.suggestion).toContain('gpt-4o-mini');
    expect(v!.suggestion).toContain('4000 tokens');
    expect(sw.check(s, 'handoff')[0]).toMatchObject({
      tripped: true,
      reason: 'OPERATION_BLOCKED_CONSERVATIVE',
    });
    expect(sw.restrictions()).toEqual({
      model: 'gpt-4o-mini',
      maxTokens: 4000,
      stream: false,
      blockedOperations: ['handoff'],
    });
  });

  it('activates on timeouts, LLM errors and bursts of errors, not on one tool failure', () => {
    expect(
      sw.onOutcome(
        newSwitchState(),
        0,
        { ok: false, message: 'Request timed out', source: 'x' },
        100,
      )?.reason,
    ).toBe('timeout');
    expect(
      sw.onOutcome(newSwitchState(), 0, { ok: false, provider: 'openai', source: 'x' }, 100)
        ?.reason,
    ).toBe('llm_error');
    const s = newSwitchState();
    expect(sw.onOutcome(s, 0, { ok: false, source: 'run_tests' }, 100)).toBeUndefined();
    expect(sw.onOutcome(s, 1, { ok: false, source: 'run_tests' }, 100)).toBeUndefined();
    expect(sw.onOutcome(s, 2, { ok: false, source: 'run_tests' }, 100)?.reason).toBe(
      'repeated_errors',
    );
  });

  it('recovers by itself after a success with budget left and no recent error', () => {
    const s = newSwitchState();
    sw.onOutcome(s, 0, { ok: false, status: 429, source: 'llm' }, 100);
    expect(sw.onOutcome(s, 60_000, { ok: true, source: 'llm' }, 100)).toBeUndefined(); // error too recent
    expect(sw.onOutcome(s, 5 * 60_000, { ok: true, source: 'llm' }, 15)).toBeUndefined(); // too little budget
    expect(sw.onOutcome(s, 5 * 60_000, { ok: true, source: 'llm' }, 50)).toEqual({
      mode: 'normal',
      reason: 'auto_recovery',
    });
  });

  it('recovers by hand unless a budget is used up', () => {
    const s = newSwitchState();
    sw.onBudgetExhausted(s, 0);
    expect(sw.recoverManually(s, 0)).toMatchObject({ recovered: false });
    expect(sw.recoverManually(s, 30)).toMatchObject({
      recovered: true,
      change: { mode: 'normal', reason: 'manual_recovery' },
    });
    expect(s.mode).toBe('normal');
  });
});

describe('AutomationLadder (seed 000)', () => {
  const config = { ...defaults.ladder, noAutoLevelProjects: ['/locked'] };
  const ladder = new AutomationLadder(() => config);

  it('levels up only when every requirement of the next level holds', () => {
    const s = ladder.newState();
    expect(s.level).toBe(1);
    for (let i = 0; i < 49; i++) expect(ladder.recordRun(s, true, i)).toBeUndefined();
    expect(ladder.unmet(s, 2)).toEqual(['runs 49 < 50', 'approval rate 0.00 < 0.8']);
    for (let i = 0; i < 9; i++) ladder.recordDecision(s, true, 100);
    ladder.recordDecision(s, false, 100);
    const change = ladder.recordRun(s, true, 200);
    expect(change).toMatchObject({ from: 1, to: 2, by: 'auto' });
    expect(s.history).toHaveLength(1);
  });

  it('never changes automatically in a project that forbids it', () => {
    const s = ladder.newState();
    s.metrics = {
      totalRuns: 499,
      successfulRuns: 499,
      falsePositives: 0,
      missedCriticalBugs: 0,
      decisions: 100,
      approvals: 100,
    };
    expect(ladder.recordRun(s, true, 0, '/locked')).toBeUndefined();
    expect(ladder.recordRun(s, true, 0, '/other', true)).toBeUndefined();
    expect(s.level).toBe(1);
    expect(ladder.recordRun(s, true, 0, '/other')?.to).toBe(2);
  });

  it('drops a level when its quality bar breaks, and humans may set any level', () => {
    const s = ladder.newState();
    ladder.setLevel(s, 3, 0, 'trusted');
    expect(ladder.recordMissedCriticalBug(s, 1)).toMatchObject({ from: 3, to: 2, by: 'auto' });
    expect(s.history.map((h) => h.by)).toEqual(['human', 'auto']);
  });

  it('auto-approves only low-risk actions from level 2, never the forbidden ones', () => {
    const s = ladder.newState();
    expect(ladder.mayAutoApprove(s, 'create_pull_request', 'low').autoApprove).toBe(false);
    s.level = 2;
    expect(ladder.mayAutoApprove(s, 'create_pull_request', 'low')).toEqual({
      autoApprove: true,
      notify: false,
    });
    expect(ladder.mayAutoApprove(s, 'create_pull_request', 'medium').autoApprove).toBe(false);
    expect(ladder.mayAutoApprove(s, 'deploy', 'low').autoApprove).toBe(false);
    s.level = 3;
    expect(ladder.mayAutoApprove(s, 'create_pull_request', 'low').notify).toBe(true);
  });
});
