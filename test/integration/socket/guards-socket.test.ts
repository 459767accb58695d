import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import type { Verdict } from '../../../shared/domain';
import { TestDaemon } from '../../support/daemon';

/** Each guard, tripped over the real socket of a real daemon, makes `check` say stop. */
let d: TestDaemon;
let admin: AdminClient;
const agents: GatehouseClient[] = [];

beforeAll(async () => {
  d = await TestDaemon.start({}, ['--no-dashboard']);
  admin = await d.admin();
});
afterAll(async () => {
  agents.forEach((a) => a.close());
  admin.close();
  await d.stop();
});

const connect = async (agent: string) => {
  const a = await d.agent({ agent });
  agents.push(a);
  return a;
};
const tripped = (verdicts: Verdict[]) => verdicts.filter((v) => v.tripped).map((v) => v.reason);
/** Settings a test changed, with their values before: put back after each test, pass or fail. */
const changed = new Map<string, unknown>();
const set = async (key: string, value: unknown) => {
  if (!changed.has(key)) changed.set(key, (await admin.call('settings.get', { key })).value);
  return admin.call('settings.set', { key, value });
};
afterEach(async () => {
  for (const [key, value] of changed) await admin.call('settings.set', { key, value });
  changed.clear();
});

describe('guards tripping check over the socket', () => {
  it('iteration limit per phase, with a warning first', async () => {
    const a = await connect('looper');
    const results = [];
    for (let i = 1; i <= 6; i++) results.push(await a.check({ phase: 'testing', iteration: i }));
    expect(results.slice(0, 4).every((r) => r.allowed)).toBe(true);
    expect(results[3]!.verdicts.some((v) => v.warning)).toBe(true);
    expect(results[5]!.allowed).toBe(false);
    expect(tripped(results[5]!.verdicts)).toContain('MAX_ITERATIONS_EXCEEDED');
  });

  it('stagnation: checks in a row without progress', async () => {
    const a = await connect('stagnant');
    let last;
    for (let i = 0; i < 3; i++) last = await a.check({ progress: false });
    expect(last!.allowed).toBe(false);
    expect(tripped(last!.verdicts)).toContain('STAGNATION_DETECTED');
  });

  it('session budget, per-operation cap, and no free unknown models', async () => {
    await set('budgets.perSessionUsd', 1);
    const a = await connect('spender');
    expect(
      (await a.usage({ model: 'x', inputTokens: 10, outputTokens: 10, costUsd: 0.6 })).spent
        .session,
    ).toBeCloseTo(0.6);
    await a.usage({ model: 'x', inputTokens: 10, outputTokens: 10, costUsd: 0.6 });
    const r = await a.check({});
    expect(r.allowed).toBe(false);
    expect(tripped(r.verdicts)).toContain('SESSION_BUDGET_EXCEEDED');
    const b = await connect('big-op');
    const op = await b.check({ estimatedCostUsd: 5 });
    expect(op.allowed).toBe(false);
    expect(tripped(op.verdicts)).toContain('OPERATION_BUDGET_EXCEEDED');
    await expect(
      b.usage({ model: 'no-such-model-xyz', inputTokens: 1000, outputTokens: 10 }),
    ).rejects.toMatchObject({ code: -32602 });
    const priced = await b.usage({ model: 'gpt-4o', inputTokens: 1_000_000, outputTokens: 0 });
    expect(priced.costUsd).toBeGreaterThan(0);
    await set('budgets.perSessionUsd', 10);
  });

  it('two agents racing for the last dollar of the day: only one gets it', async () => {
    const day = (await admin.call('guards.budgets', {})).spent.dayUsd;
    await set('budgets.perDayUsd', day + 1);
    const [x, y] = [await connect('racer-x'), await connect('racer-y')];
    const [rx, ry] = await Promise.all([
      x.check({ estimatedCostUsd: 0.8 }),
      y.check({ estimatedCostUsd: 0.8 }),
    ]);
    expect([rx.allowed, ry.allowed].sort()).toEqual([false, true]);
    expect(tripped((rx.allowed ? ry : rx).verdicts)).toContain('DAILY_BUDGET_EXCEEDED');
    await set('budgets.perDayUsd', 50);
  });

  it('provider health: three 429s cool the provider down', async () => {
    const a = await connect('rate-limited');
    for (let i = 0; i < 3; i++)
      await a.outcome({
        ok: false,
        source: 'llm',
        provider: 'acme',
        httpStatus: 429,
        message: 'Too Many Requests',
      });
    const r = await a.check({ provider: 'acme' });
    expect(r.allowed).toBe(false);
    expect(tripped(r.verdicts)).toContain('PROVIDER_RATE_LIMITED');
    const breakers = (await admin.call('guards.breakers', {})).breakers;
    expect(breakers.map((b) => b.name)).toContain('provider:acme');
    await admin.call('guards.reset', { name: 'provider:acme', falsePositive: false });
    expect(tripped((await a.check({ provider: 'acme' })).verdicts)).not.toContain(
      'PROVIDER_RATE_LIMITED',
    );
  });

  it('stuck detection: the same output again and again', async () => {
    const a = await connect('parrot');
    for (let i = 0; i < 3; i++)
      await a.outcome({
        ok: true,
        source: 'tool',
        tool: 'grep',
        output: `no matches found at ${Date.now() + i}`,
      });
    const r = await a.check({});
    expect(r.allowed).toBe(false);
    expect(tripped(r.verdicts)).toContain('REPEATED_OUTPUT');
  });

  it('run breaker: repeated errors stop the run with an escalation message', async () => {
    const a = await connect('flaky');
    for (let i = 0; i < 3; i++)
      await a.outcome({
        ok: false,
        source: 'build',
        message: 'TypeError: x is undefined\n    at foo.js:1',
      });
    const r = await a.check({});
    expect(r.allowed).toBe(false);
    const verdict = r.verdicts.find((v) => v.tripped && /REPEATED_ERROR/.test(v.reason ?? ''));
    expect(verdict).toBeDefined();
    expect(verdict!.suggestion ?? '').toMatch(/fail/i);
  });

  it('error rate: most outcomes failing trips the critical rate', async () => {
    const a = await connect('erratic');
    for (let i = 0; i < 12; i++)
      await a.outcome({
        ok: i % 3 === 0,
        source: `step-${i}`,
        message: `error ${i} of kind ${String.fromCharCode(97 + i)}`,
      });
    const r = await a.check({});
    expect(r.allowed).toBe(false);
    expect(tripped(r.verdicts)).toEqual(expect.arrayContaining(['ERROR_RATE_CRITICAL']));
  });

  it('the safety switch puts a session into conservative mode with restrictions, and a human recovers it', async () => {
    await set('guards.safety.blockedOperations', ['web_search']);
    const a = await connect('cautious');
    await a.outcome({
      ok: false,
      source: 'llm',
      provider: 'other',
      httpStatus: 429,
      message: 'rate limited',
    });
    const r = await a.check({});
    expect(r.mode).toBe('conservative');
    expect(r.restrictions).toMatchObject({ stream: false, blockedOperations: ['web_search'] });
    expect((await a.check({ tool: 'web_search' })).allowed).toBe(false);
    await admin.call('guards.recover', { sessionId: a.sessionId! });
    expect((await a.check({})).mode).toBe('normal');
  });

  it('time breaker: a run that outlives its limit', async () => {
    await set('guards.time.runTimeoutMs', 300);
    const a = await connect('slowpoke');
    expect((await a.check({})).allowed).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    const r = await a.check({});
    expect(r.allowed).toBe(false);
    expect(r.verdicts.some((v) => v.tripped && v.breaker.includes('time'))).toBe(true);
    await set('guards.time.runTimeoutMs', 120 * 60_000);
  });

  it('every trip is in the audit log with its reason code and evidence', async () => {
    const { events } = await admin.call('audit.query', { limit: 500 });
    const trips = events.filter((e) => e.type.startsWith('guard.'));
    expect(trips.length).toBeGreaterThan(5);
    expect(JSON.stringify(trips)).toContain('MAX_ITERATIONS_EXCEEDED');
  });

  it('the CLI shows budgets and breakers as JSON', async () => {
    const budgets = JSON.parse((await d.cli(['budgets', '--json'])).stdout);
    expect(budgets.spent.dayUsd).toBeGreaterThan(0);
    expect(budgets.byModel.map((m: { key: string }) => m.key)).toContain('gpt-4o');
    const breakers = JSON.parse((await d.cli(['breakers', '--json'])).stdout);
    expect(Array.isArray(breakers.breakers)).toBe(true);
    expect(Array.isArray(breakers.recentTrips)).toBe(true);
    const bad = await d.cli(['reset', 'nonsense:thing']);
    expect(bad.code).not.toBe(0);
  });
});
