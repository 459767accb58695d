import { describe, expect, it } from 'vitest';
import { BudgetGuard } from '../../../../../main/engine/guards/budget-guard';
import { MemoryGuardStateStore } from '../../../../../main/engine/guards/guard-state-store';
import { nextLocalMidnight } from '../../../../../main/engine/guards/local-day';
import { PriceTable } from '../../../../../main/engine/guards/price-table';
import { ErrorCode, GatehouseError } from '../../../../../shared/protocol/errors';
import { BudgetSettings } from '../../../../../shared/settings/budgets';
import { FakeClock } from '../../../../support/fake-clock';

const a1 = { sessionId: 's1', agent: 'agent-1' };
const a2 = { sessionId: 's2', agent: 'agent-2' };
const spend = (costUsd: number, phase?: string) => ({
  model: 'm',
  inputTokens: 1,
  outputTokens: 1,
  costUsd,
  phase,
  priceSource: 'reported',
});

function setup(overrides: Record<string, unknown> = {}) {
  const clock = new FakeClock();
  const store = new MemoryGuardStateStore();
  const settings = BudgetSettings.parse({
    perDayUsd: 10,
    perSessionUsd: 0,
    perOperationUsd: 0,
    perPhaseUsd: {},
    ...overrides,
  });
  const guard = new BudgetGuard(clock, store, () => settings);
  return { clock, store, guard, settings };
}

describe('PriceTable', () => {
  it('prices known models from @pydantic/genai-prices', () => {
    const table = new PriceTable(() => ({}));
    const { costUsd, source } = table.costOf({
      model: 'gpt-4o',
      inputTokens: 1_000_000,
      outputTokens: 0,
    });
    expect(costUsd).toBeCloseTo(2.5);
    expect(source).toContain('openai');
    expect(
      table.costOf({
        model: 'anthropic:claude-sonnet-4-5',
        inputTokens: 0,
        outputTokens: 1_000_000,
      }).costUsd,
    ).toBeCloseTo(15);
  });

  it('lets user overrides win and takes a reported cost as is', () => {
    const table = new PriceTable(() => ({ 'gpt-4o': { inputPerMTokUsd: 1, outputPerMTokUsd: 2 } }));
    expect(
      table.costOf({ model: 'gpt-4o', inputTokens: 1_000_000, outputTokens: 1_000_000 }),
    ).toEqual({ costUsd: 3, source: 'override' });
    expect(
      table.costOf({ model: 'whatever', inputTokens: 5, outputTokens: 5, costUsd: 0.25 }).costUsd,
    ).toBe(0.25);
  });

  it('never prices an unknown model as free', () => {
    const table = new PriceTable(() => ({}));
    let error: unknown;
    try {
      table.costOf({ model: 'my-private-model-9', inputTokens: 10, outputTokens: 10 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatehouseError);
    expect((error as GatehouseError).code).toBe(ErrorCode.InvalidParams);
  });
});

describe('BudgetGuard', () => {
  it('lets exactly one of two agents racing for the last dollar through', () => {
    const { guard } = setup();
    guard.record(a1, spend(9));
    // Both estimate $0.80 against $1 left: the first check reserves, the second sees it.
    const first = guard.check(a1, undefined, 0.8);
    expect(first.some((v) => v.tripped)).toBe(false);
    guard.reserve(a1, undefined, 0.8);
    const second = guard.check(a2, undefined, 0.8);
    expect(second.find((v) => v.tripped)).toMatchObject({
      reason: 'DAILY_BUDGET_EXCEEDED',
      threshold: 10,
    });
    expect(second.find((v) => v.tripped)!.current).toBeCloseTo(10.6);
    // The winner's usage settles its reservation at the real cost.
    guard.record(a1, spend(0.5));
    expect(guard.today().reservedUsd).toBe(0);
    expect(guard.check(a2, undefined, 0.4).some((v) => v.tripped)).toBe(false);
    expect(guard.check(a2, undefined, 0.6).some((v) => v.tripped)).toBe(true);
  });

  it('warns at the warning percentage and trips once spent', () => {
    const { guard } = setup();
    const warn = guard.record(a1, spend(8));
    expect(warn.verdicts[0]).toMatchObject({ warning: true, reason: 'DAILY_BUDGET_WARNING' });
    const over = guard.record(a1, spend(2));
    expect(over.verdicts[0]).toMatchObject({ tripped: true, reason: 'DAILY_BUDGET_EXCEEDED' });
    expect(guard.check(a2, undefined, 0)[0]).toMatchObject({
      tripped: true,
      reason: 'DAILY_BUDGET_EXCEEDED',
    });
    expect(over.spent).toEqual({ session: 10, day: 10 });
  });

  it('resets the daily total at local midnight', () => {
    const { clock, guard } = setup();
    clock.set(nextLocalMidnight(clock.now()) - 60_000); // 23:59 local
    guard.record(a1, spend(10));
    expect(guard.check(a1, undefined, 0)[0]?.tripped).toBe(true);
    clock.advance(59_999);
    expect(guard.check(a1, undefined, 0)[0]?.tripped).toBe(true);
    clock.advance(1);
    expect(guard.check(a1, undefined, 0)).toEqual([]);
    expect(guard.spent(a1)).toEqual({ session: 10, day: 0 });
  });

  it('applies session, phase, per-operation and per-agent caps', () => {
    const { guard } = setup({
      perDayUsd: 0,
      perSessionUsd: 5,
      perOperationUsd: 1,
      perPhaseUsd: { review: 2 },
      agents: { 'agent-2': { perDayUsd: 3, perOperationUsd: 0.5 } },
    });
    expect(guard.check(a1, undefined, 1.5).map((v) => v.reason)).toEqual([
      'OPERATION_BUDGET_EXCEEDED',
    ]);
    guard.record(a1, spend(1.9, 'review'));
    expect(guard.check(a1, 'review', 0.2).map((v) => v.reason)).toContain('PHASE_BUDGET_EXCEEDED');
    expect(guard.check(a1, 'implementation', 0.2).filter((v) => v.tripped)).toEqual([]);
    expect(guard.check(a2, undefined, 0.6).map((v) => v.reason)).toEqual([
      'OPERATION_BUDGET_EXCEEDED',
    ]);
    guard.record(a2, spend(2.9));
    expect(
      guard.check({ sessionId: 's3', agent: 'agent-2' }, undefined, 0.2).map((v) => v.reason),
    ).toContain('AGENT_DAILY_BUDGET_EXCEEDED');
    expect(guard.record(a1, spend(1.5)).verdicts.map((v) => v.reason)).toContain(
      'OPERATION_BUDGET_EXCEEDED',
    );
  });

  it('releases reservations nobody settles after their time to live', () => {
    const { clock, guard } = setup();
    guard.reserve(a1, undefined, 9.5);
    expect(guard.check(a2, undefined, 1)[0]?.tripped).toBe(true);
    clock.advance(10 * 60_000);
    expect(guard.check(a2, undefined, 1).filter((v) => v.tripped)).toEqual([]);
  });

  it('reloads today and the session from the ledger after a restart', () => {
    const { clock, store, guard, settings } = setup();
    guard.record(a1, spend(4));
    const restarted = new BudgetGuard(clock, store, () => settings);
    expect(restarted.spent(a1)).toEqual({ session: 4, day: 4 });
    restarted.record(a1, spend(1));
    expect(restarted.spent(a1)).toEqual({ session: 5, day: 5 });
    expect(restarted.remainingPct(a1)).toBeCloseTo(50);
  });
});
