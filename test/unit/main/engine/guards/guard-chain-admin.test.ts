import { describe, expect, it } from 'vitest';
import { parseBreakerName } from '../../../../../main/engine/guards/guard';
import { GuardAdmin } from '../../../../../main/engine/guards/guard-chain-admin';
import { GuardChain } from '../../../../../main/engine/guards/engine-guard-chain';
import { MemoryGuardStateStore } from '../../../../../main/engine/guards/guard-state-store';
import { SessionStates } from '../../../../../main/engine/guards/session-guards';
import {
  CheckParams,
  OutcomeParams,
  UsageParams,
} from '../../../../../shared/protocol/agent-methods';
import { ErrorCode } from '../../../../../shared/protocol/errors';
import { Settings } from '../../../../../shared/settings/index';
import { FakeClock } from '../../../../support/fake-clock';

const ctx = { sessionId: 'sess-1', agent: 'agent-1' };

/** A chain over an in-memory store, its admin, and settings a test may change in place. */
function setup(over: unknown = {}) {
  const clock = new FakeClock();
  const store = new MemoryGuardStateStore();
  const settings = Settings.parse(over);
  const chain = new GuardChain({ clock, store, settings: () => settings });
  const admin = new GuardAdmin(chain, () => ctx.agent);
  return {
    clock,
    store,
    settings,
    chain,
    admin,
    check: (p: unknown, c = ctx) => chain.check(c, CheckParams.parse(p)),
    outcome: (p: unknown, c = ctx) => chain.outcome(c, OutcomeParams.parse(p)),
    usage: (p: unknown, c = ctx) => chain.usage(c, UsageParams.parse(p)),
    row: (name: string) => admin.breakers().breakers.find((r) => r.name === name),
  };
}

/** Half of the outcomes fail: over the default critical rate (0.25), with the minimum of 10. */
const failHalf = (t: ReturnType<typeof setup>, c = ctx): void => {
  for (let i = 0; i < 5; i++) {
    t.outcome({ ok: true, source: 'tool' }, c);
    t.outcome({ ok: false, source: 'tool', message: `e${i}` }, c);
  }
};

// Only the error-rate breaker here: ten failures would also stop the run and the switch.
const errorRateOnly = (enabled: boolean) => ({
  guards: {
    errorRate: { enabled },
    run: { enabled: false },
    stuck: { enabled: false },
    safety: { enabled: false },
  },
});

describe('the error-rate breaker, one implementation for the chain and the breakers view', () => {
  it('trips at the critical rate and shows the same level in the breakers view', () => {
    const t = setup(errorRateOnly(true));
    failHalf(t);
    const c = t.check({});
    expect(c.allowed).toBe(false);
    expect(c.verdicts[0]).toMatchObject({ breaker: 'error_rate', reason: 'ERROR_RATE_CRITICAL' });
    expect(t.row('error_rate:sess-1')).toMatchObject({
      kind: 'error_rate',
      state: 'open',
      reason: 'ERROR_RATE_CRITICAL',
      current: 0.5,
      threshold: 0.25,
      detail: '5 of 10 outcomes failed',
    });
  });

  it('a disabled breaker never trips and the view shows it closed and disabled', () => {
    const t = setup(errorRateOnly(false));
    failHalf(t);
    for (let i = 0; i < 20; i++) t.outcome({ ok: false, source: 'tool', message: 'down' });
    const c = t.check({});
    expect(c.allowed).toBe(true);
    expect(c.verdicts.filter((v) => v.breaker === 'error_rate')).toEqual([]);
    const row = t.row('error_rate:sess-1');
    expect(row).toMatchObject({ state: 'closed', current: 25 / 30 });
    expect(row?.reason).toBeUndefined();
    expect(row?.detail).toMatch(/^disabled .*25 of 30 outcomes failed$/);

    // Turned on again, the same window trips at once: the setting is read on every call.
    t.settings.guards.errorRate.enabled = true;
    expect(t.check({}).allowed).toBe(false);
    expect(t.row('error_rate:sess-1')).toMatchObject({ state: 'open' });
  });

  it('a rate level of 0 is off in the view as in the chain', () => {
    const t = setup({ guards: { ...errorRateOnly(true).guards, errorRate: { criticalRate: 0 } } });
    failHalf(t);
    expect(t.check({}).verdicts.map((v) => v.reason)).toEqual(['ERROR_RATE_WARNING']);
    expect(t.row('error_rate:sess-1')).toMatchObject({
      state: 'closed',
      reason: 'ERROR_RATE_WARNING',
    });
  });
});

describe('resets through the guard interface', () => {
  it('resets every kind of breaker by name, and refuses unknown names and sessions', () => {
    const t = setup({ budgets: { perDayUsd: 5 } });
    t.check({ phase: 'testing', iteration: 1, estimatedCostUsd: 1 });
    for (const kind of ['run', 'stuck', 'iteration', 'time', 'error_rate', 'safety_switch']) {
      expect(t.admin.reset({ name: `${kind}:sess-1`, falsePositive: false }).result).toEqual({
        reset: [`${kind}:sess-1`],
      });
    }
    expect(t.admin.budgets({ days: 1 }).spent.reservedUsd).toBe(1);
    t.admin.reset({ name: 'budget:sess-1', falsePositive: false });
    expect(t.admin.budgets({ days: 1 }).spent.reservedUsd).toBe(0);

    for (const name of ['run:nobody', 'session:nobody', 'bogus:sess-1', 'run:', ':sess-1', 'run']) {
      expect(() => t.admin.reset({ name, falsePositive: false })).toThrowError(
        expect.objectContaining({ code: ErrorCode.NotFound }),
      );
    }
    expect(() => t.admin.recover({ sessionId: 'nobody' })).toThrowError(
      expect.objectContaining({ code: ErrorCode.NotFound }),
    );
  });

  it('session:ID resets every guard of the session, and only of that session', () => {
    const t = setup();
    const other = { sessionId: 'sess-2', agent: 'agent-2' };
    for (const c of [ctx, other]) {
      t.chain.kill(c, 'stop');
      t.outcome({ ok: false, source: 'llm', httpStatus: 429 }, c);
    }
    expect(t.chain.mode(ctx)).toBe('conservative');
    const reset = t.admin.reset({ name: 'session:sess-1', falsePositive: false });
    expect(reset.effects.events).toEqual([{ type: 'guard.reset', breaker: 'session:sess-1' }]);
    expect(t.chain.mode(ctx)).toBe('normal');
    expect(t.check({}).allowed).toBe(true);
    expect(t.chain.mode(other)).toBe('conservative');
    expect(t.check({}, other).allowed).toBe(false);
  });

  it('a provider and a tool breaker reset by name and stay closed across a restart', () => {
    const t = setup({ guards: { run: { enabled: false }, stuck: { enabled: false } } });
    t.outcome({ ok: false, source: 'llm', provider: 'acme', httpStatus: 402 });
    for (let i = 0; i < 5; i++) t.outcome({ ok: false, source: 'tool', tool: 'deploy' });
    expect(t.row('provider:acme')?.state).toBe('open');
    expect(t.row('tool:agent-1:deploy')?.state).toBe('open');
    t.admin.reset({ name: 'provider:acme', falsePositive: false });
    t.admin.reset({ name: 'tool:agent-1:deploy', falsePositive: true });
    const restarted = new GuardAdmin(
      new GuardChain({ clock: t.clock, store: t.store, settings: () => t.settings }),
    );
    const states = restarted.breakers().breakers.map((r) => [r.name, r.state]);
    expect(states).toEqual(
      expect.arrayContaining([
        ['provider:acme', 'closed'],
        ['tool:agent-1:deploy', 'closed'],
      ]),
    );
    expect(restarted.ladder({}).metrics.falsePositives).toBe(1);
    t.chain.dispose();
  });
});

describe('the breakers view', () => {
  it('lists providers and tools first, then the session guards session by session', () => {
    const t = setup({ guards: { stuck: { enabled: false } } });
    const other = { sessionId: 'sess-0', agent: 'agent-1' };
    for (const c of [ctx, other]) {
      t.chain.kill(c, 'stop');
      failHalf(t, c);
    }
    t.outcome({ ok: false, source: 'tool', tool: 'deploy' });
    t.outcome({ ok: false, source: 'llm', provider: 'acme', httpStatus: 402 });
    expect(t.admin.breakers().breakers.map((r) => r.name)).toEqual([
      'provider:acme',
      'tool:agent-1:deploy',
      'error_rate:sess-0',
      'run:sess-0',
      'safety_switch:sess-0',
      'error_rate:sess-1',
      'run:sess-1',
      'safety_switch:sess-1',
    ]);
  });

  it('builds nothing from the settings until a guard is used (the composition root sets them later)', () => {
    const store = new MemoryGuardStateStore();
    const clock = new FakeClock();
    const settings = Settings.parse({});
    const first = new GuardChain({ clock, store, settings: () => settings });
    first.outcome(
      ctx,
      OutcomeParams.parse({ ok: false, source: 'llm', provider: 'acme', httpStatus: 402 }),
    );
    first.dispose();
    let ready = false;
    const chain = new GuardChain({
      clock,
      store,
      settings: () => {
        if (!ready) throw new Error('settings read while building');
        return settings;
      },
    });
    ready = true;
    expect(new GuardAdmin(chain).breakers().breakers[0]).toMatchObject({
      name: 'provider:acme',
      state: 'open',
    });
    chain.dispose();
  });
});

describe('state keys and breaker names', () => {
  it('splits a breaker name at its first colon, so ids may hold colons', () => {
    expect(parseBreakerName('tool:agent-1:web_search')).toEqual({
      kind: 'tool',
      id: 'agent-1:web_search',
    });
    expect(parseBreakerName('run')).toBeUndefined();
    expect(parseBreakerName('run:')).toBeUndefined();
    expect(parseBreakerName(':x')).toBeUndefined();
  });

  it('reads back what it wrote under session:<id>:<part>, and nothing else', () => {
    const store = new MemoryGuardStateStore();
    const sessions = new SessionStates(store, () => 0);
    const s = sessions.get('a:b');
    s.touch('run').attempts = 2;
    s.flush();
    store.saveState('session:x:unknown-part', {});
    store.saveState('sessions-other', {});
    expect(sessions.known('a:b')).toBe(true);
    expect(sessions.known('a')).toBe(false);
    const stored = sessions.stored();
    expect(stored.run).toEqual([
      { sessionId: 'a:b', state: expect.objectContaining({ attempts: 2 }) },
    ]);
    expect(Object.values(stored).flat()).toHaveLength(1);
  });
});
