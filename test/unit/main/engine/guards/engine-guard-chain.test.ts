import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GuardAdmin } from '../../../../../main/engine/guards/guard-chain-admin';
import { GuardChain } from '../../../../../main/engine/guards/engine-guard-chain';
import {
  MemoryGuardStateStore,
  type GuardStateStore,
} from '../../../../../main/engine/guards/guard-state-store';
import { GuardStateRepository } from '../../../../../main/store/guard-state-repository';
import { migrations } from '../../../../../main/store/migrations/index';
import { ErrorCode } from '../../../../../shared/protocol/errors';
import {
  CheckParams,
  OutcomeParams,
  UsageParams,
} from '../../../../../shared/protocol/agent-methods';
import { defaultSettings, Settings } from '../../../../../shared/settings/index';
import { FakeClock } from '../../../../support/fake-clock';

const ctx = { sessionId: 'sess-1', agent: 'agent-1' };
const check = (chain: GuardChain, p: unknown, c = ctx) => chain.check(c, CheckParams.parse(p));
const usage = (chain: GuardChain, p: unknown, c = ctx) => chain.usage(c, UsageParams.parse(p));
const outcome = (chain: GuardChain, p: unknown, c = ctx) =>
  chain.outcome(c, OutcomeParams.parse(p));

function openDb(file: string): Database.Database {
  const db = new Database(file);
  const version = db.pragma('user_version', { simple: true }) as number;
  for (const m of migrations) {
    if (m.version <= version) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-guards-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function chainOver(
  store: GuardStateStore,
  clock: FakeClock,
  settings: Settings = defaultSettings(),
): GuardChain {
  return new GuardChain({ clock, store, settings: () => settings });
}

describe('GuardStateRepository (SQLite file)', () => {
  it('keeps state by key and sums the ledger', () => {
    const db = openDb(join(dir, 'g.db'));
    const repo = new GuardStateRepository(db);
    repo.saveState('tool:a:x', { n: 1 });
    repo.saveState('tool:a:x', { n: 2 });
    repo.saveState('tool:b:y', { n: 3 });
    repo.saveState('toolbox', { n: 4 });
    expect(repo.loadState('tool:a:x')).toEqual({ n: 2 });
    expect(repo.loadState('missing')).toBeUndefined();
    expect(repo.listStates('tool:').map((r) => r.key)).toEqual(['tool:a:x', 'tool:b:y']);
    repo.deleteState('tool:b:y');
    expect(repo.listStates('tool:')).toHaveLength(1);

    const row = {
      at: 1,
      sessionId: 's1',
      agent: 'a',
      model: 'gpt-4o',
      inputTokens: 10,
      outputTokens: 5,
      priceSource: 'reported',
    };
    repo.appendSpend({ ...row, day: '2026-01-04', costUsd: 1 });
    repo.appendSpend({ ...row, day: '2026-01-05', costUsd: 2, phase: 'review' });
    repo.appendSpend({ ...row, day: '2026-01-05', costUsd: 4, agent: 'b', model: 'o3' });
    expect(repo.sumSpend({})).toBe(7);
    expect(repo.sumSpend({ day: '2026-01-05' })).toBe(6);
    expect(repo.sumSpend({ sessionId: 's1', phase: 'review' })).toBe(2);
    expect(repo.sumSpend({ agent: 'nobody' })).toBe(0);
    expect(repo.spendBy('model', { day: '2026-01-05' })).toEqual([
      { key: 'o3', costUsd: 4, inputTokens: 10, outputTokens: 5, calls: 1 },
      { key: 'gpt-4o', costUsd: 2, inputTokens: 10, outputTokens: 5, calls: 1 },
    ]);
    expect(repo.spendBy('day', { sinceDay: '2026-01-05' }).map((r) => r.key)).toEqual([
      '2026-01-05',
    ]);
    db.close();
  });
});

describe('GuardChain', () => {
  it('says allowed: false when any guard trips, and audits the trip with its evidence', () => {
    const clock = new FakeClock();
    const chain = chainOver(new MemoryGuardStateStore(), clock);
    const ok = check(chain, { phase: 'testing', iteration: 1, estimatedCostUsd: 0.01 });
    expect(ok).toMatchObject({
      allowed: true,
      mode: 'normal',
      verdicts: [],
      audit: [],
      events: [],
    });
    const over = check(chain, { phase: 'testing', iteration: 6 });
    expect(over.allowed).toBe(false);
    expect(over.verdicts[0]).toMatchObject({
      breaker: 'iteration',
      reason: 'MAX_ITERATIONS_EXCEEDED',
    });
    expect(over.audit[0]).toMatchObject({
      type: 'guard.tripped',
      data: { method: 'check', reason: 'MAX_ITERATIONS_EXCEEDED', evidence: { iteration: 6 } },
    });
    expect(over.events[0]).toMatchObject({
      type: 'guard.tripped',
      sessionId: 'sess-1',
      agent: 'agent-1',
    });
    // The same trip again: audited again, but not published again within the window.
    const again = check(chain, { phase: 'testing', iteration: 7 });
    expect(again.audit).toHaveLength(1);
    expect(again.events).toHaveLength(0);
  });

  it('prices usage, reports spend, and refuses an unknown model without a cost', () => {
    const clock = new FakeClock();
    const chain = chainOver(new MemoryGuardStateStore(), clock);
    const u = usage(chain, { model: 'gpt-4o', inputTokens: 1_000_000, outputTokens: 0 });
    expect(u.costUsd).toBeCloseTo(2.5);
    expect(u.spent.session).toBeCloseTo(2.5);
    expect(() =>
      usage(chain, { model: 'mystery-model', inputTokens: 1, outputTokens: 1 }),
    ).toThrowError(expect.objectContaining({ code: ErrorCode.InvalidParams }));
    expect(
      usage(chain, { model: 'mystery-model', inputTokens: 1, outputTokens: 1, costUsd: 0.5 })
        .costUsd,
    ).toBe(0.5);
    expect(chain.spent(ctx).budgetRemainingPct).toBeCloseTo(70);
  });

  it('two agents racing for the last dollar: one is allowed, the other is refused', () => {
    const clock = new FakeClock();
    const settings = Settings.parse({ budgets: { perDayUsd: 5 } });
    const chain = chainOver(new MemoryGuardStateStore(), clock, settings);
    usage(chain, { model: 'x', inputTokens: 0, outputTokens: 0, costUsd: 4 });
    const b = { sessionId: 'sess-2', agent: 'agent-2' };
    const first = check(chain, { estimatedCostUsd: 0.9 });
    const second = check(chain, { estimatedCostUsd: 0.9 }, b);
    expect([first.allowed, second.allowed]).toEqual([true, false]);
    expect(second.verdicts.find((v) => v.tripped)?.reason).toBe('DAILY_BUDGET_EXCEEDED');
    // An exhausted budget switches the refused session into conservative mode.
    expect(second.mode).toBe('conservative');
    expect(second.events.map((e) => e.type)).toContain('mode.changed');
  });

  it('opens a provider on 402 and a tool after repeated failures; conservative mode restricts', () => {
    const clock = new FakeClock();
    const chain = chainOver(new MemoryGuardStateStore(), clock);
    const o = outcome(chain, {
      ok: false,
      source: 'llm',
      provider: 'openrouter',
      message: '[402] Insufficient credits',
    });
    expect(o.verdicts.map((v) => v.reason)).toContain('PROVIDER_PAYMENT_REQUIRED');
    expect(o.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['guard.tripped', 'mode.changed']),
    );
    const c = check(chain, { provider: 'openrouter' });
    expect(c.allowed).toBe(false);
    expect(c.mode).toBe('conservative');
    expect(c.restrictions).toMatchObject({ maxTokens: 4000, stream: false });
    expect(c.verdicts.map((v) => v.reason)).toEqual([
      'PROVIDER_PAYMENT_REQUIRED',
      'CONSERVATIVE_MODE',
    ]);

    for (let i = 0; i < 4; i++)
      outcome(chain, { ok: false, source: 'tool', tool: 'web_search', message: `timeout ${i}` });
    const fifth = outcome(chain, {
      ok: false,
      source: 'tool',
      tool: 'web_search',
      message: 'timeout 5',
    });
    expect(fifth.verdicts.map((v) => v.reason)).toContain('TOOL_CIRCUIT_OPEN');
    expect(check(chain, { tool: 'web_search' }).allowed).toBe(false);
    expect(check(chain, { tool: 'read_file' }).verdicts.some((v) => v.breaker === 'tool')).toBe(
      false,
    );
  });

  it('stops a stuck session and a session over its retries with the escalation message', () => {
    const clock = new FakeClock();
    const chain = chainOver(new MemoryGuardStateStore(), clock);
    outcome(chain, { ok: true, source: 'agent', output: 'Step 1: nothing changed' });
    outcome(chain, { ok: true, source: 'agent', output: 'Step 2: nothing changed' });
    const o = outcome(chain, { ok: true, source: 'agent', output: 'Step 3: nothing changed' });
    expect(o.verdicts[0]).toMatchObject({ breaker: 'stuck', reason: 'REPEATED_OUTPUT' });
    expect(check(chain, {}).allowed).toBe(false);

    const other = { sessionId: 'sess-9', agent: 'agent-9' };
    outcome(chain, { ok: false, source: 'build', message: 'compile error in a.ts' }, other);
    const r = outcome(
      chain,
      { ok: false, source: 'build', message: 'compile error in a.ts' },
      other,
    );
    const run = r.verdicts.find((v) => v.breaker === 'run')!;
    expect(run.reason).toBe('REPEATED_ERROR_ESCALATED');
    expect(run.suggestion).toMatch(
      /What failed:[\s\S]*What was tried:[\s\S]*Why it stopped:[\s\S]*What a human should decide next:/,
    );
  });

  it('restored after a restart over SQLite, an open tool breaker times into half-open', () => {
    const file = join(dir, 'gatehouse.db');
    const clock = new FakeClock();
    // Only the tool breaker and provider health here: five identical failures would also stop the run.
    const settings = Settings.parse({
      guards: { run: { enabled: false }, stuck: { enabled: false } },
    });
    let db = openDb(file);
    let chain = chainOver(new GuardStateRepository(db), clock, settings);
    for (let i = 0; i < 5; i++)
      outcome(chain, { ok: false, source: 'tool', tool: 'deploy_preview', message: 'HTTP 500' });
    outcome(chain, { ok: false, source: 'llm', provider: 'anthropic', httpStatus: 401 });
    usage(chain, { model: 'gpt-4o-mini', inputTokens: 1000, outputTokens: 1000 });
    expect(check(chain, { tool: 'deploy_preview' }).allowed).toBe(false);
    chain.dispose();
    db.close();

    clock.advance(10_000);
    db = openDb(file);
    chain = chainOver(new GuardStateRepository(db), clock, settings);
    const admin = new GuardAdmin(chain);
    const rows = admin.breakers().breakers;
    expect(rows.find((r) => r.name === 'tool:agent-1:deploy_preview')).toMatchObject({
      state: 'open',
      retryInMs: 20_000,
    });
    expect(rows.find((r) => r.name === 'provider:anthropic')).toMatchObject({
      state: 'open',
      reason: 'auth',
    });
    expect(chain.mode(ctx)).toBe('conservative');
    expect(chain.spent(ctx).session).toBeGreaterThan(0);

    clock.advance(20_000); // the timer fires with nobody calling
    expect(admin.breakers().breakers.find((r) => r.kind === 'tool')?.state).toBe('half_open');
    expect(check(chain, { tool: 'deploy_preview' }).allowed).toBe(true); // probe 1
    expect(check(chain, { tool: 'deploy_preview' }).allowed).toBe(true); // probe 2
    expect(check(chain, { tool: 'deploy_preview' }).allowed).toBe(false); // no third probe
    outcome(chain, { ok: true, source: 'tool', tool: 'deploy_preview' });
    outcome(chain, { ok: true, source: 'tool', tool: 'deploy_preview' });
    expect(check(chain, { tool: 'deploy_preview' }).allowed).toBe(true);
    chain.dispose();
    db.close();
  });

  it('GuardAdmin: budgets, reset, manual recovery and the ladder', () => {
    const clock = new FakeClock();
    const chain = chainOver(new MemoryGuardStateStore(), clock);
    const admin = new GuardAdmin(chain, () => 'agent-1');
    usage(chain, { model: 'gpt-4o', inputTokens: 1_000_000, outputTokens: 0 });
    const budgets = admin.budgets({ days: 7 });
    expect(budgets.limits.perDayUsd).toBe(50);
    expect(budgets.spent.dayUsd).toBeCloseTo(2.5);
    expect(budgets.byModel[0]?.key).toBe('gpt-4o');
    expect(budgets.days).toHaveLength(1);

    outcome(chain, { ok: false, source: 'llm', httpStatus: 429, message: 'rate limited' });
    expect(chain.mode(ctx)).toBe('conservative');
    const recovered = admin.recover({ sessionId: 'sess-1' });
    expect(recovered.result).toEqual({ recovered: true, mode: 'normal' });
    expect(recovered.effects.events[0]).toMatchObject({
      type: 'mode.changed',
      mode: 'normal',
      reason: 'manual_recovery',
    });

    chain.kill(ctx, 'stop now');
    expect(admin.breakers().breakers.find((r) => r.kind === 'run')?.name).toBe('run:sess-1');
    const reset = admin.reset({ name: 'run:sess-1', falsePositive: true });
    expect(reset.result.reset).toEqual(['run:sess-1']);
    expect(reset.effects.audit[0]).toMatchObject({
      type: 'guard.reset',
      data: { breaker: 'run:sess-1', by: 'human' },
    });
    expect(check(chain, {}).allowed).toBe(true);
    expect(() => admin.reset({ name: 'run:nope', falsePositive: false })).toThrowError(
      expect.objectContaining({ code: ErrorCode.NotFound }),
    );
    expect(admin.ladder({}).metrics.falsePositives).toBe(1);

    const set = admin.setLadderLevel({ level: 2, reason: 'trusted team' });
    expect(set.result).toMatchObject({ level: 2, name: 'AI acts' });
    expect(set.effects.audit[0]).toMatchObject({
      type: 'ladder.changed',
      data: { from: 1, to: 2, by: 'human' },
    });
    expect(chain.mayAutoApprove(ctx, 'create_pull_request', 'low')).toMatchObject({
      autoApprove: true,
      level: 2,
    });
  });
});
