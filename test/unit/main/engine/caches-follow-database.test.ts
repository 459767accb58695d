import { afterEach, describe, expect, it } from 'vitest';
import type { AgentCaller } from '../../../../main/engine/engine';
import { EngineHarness } from '../../../support/engine-harness';
import { FaultyStore } from '../../../support/faulty-store';

const push = {
  action: 'git_push',
  description: 'push to origin',
  urgency: 'normal' as const,
  wait: false,
};

/** The state of a breaker as the breakers view shows it; closed when it has no row. */
const breakerState = (h: EngineHarness, name: string) =>
  h.guards.describe().breakers.find((r) => r.name === name)?.state ?? 'closed';

/** Everything the caches decide, as an agent and the person would see it. */
function behaviour(h: EngineHarness, a: AgentCaller) {
  const e = h.engine;
  const { session } = e.admin.call('session.get', {
    sessionId: a.sessionId,
    requestsLimit: 0,
    transcriptLimit: 0,
  });
  return {
    rules: e.admin.call('rules.list', {}).rules.map((r) => r.action),
    pushTier: e.classify(a, { action: 'git_push' }).tier,
    control: h.controlOf(a.agent),
    sessionCost: session.costUsd,
    spent: h.guards.spent({ sessionId: a.sessionId, agent: a.agent }),
    tool: breakerState(h, `tool:${a.agent}:bash`),
    provider: breakerState(h, 'provider:openai') === 'open',
    runBreaker: structuredClone(h.guards.session(a.sessionId).get('run')),
    errors: structuredClone(h.guards.session(a.sessionId).get('errors')),
    ladder: structuredClone(h.guards.ladders.state(undefined)),
    check: e.check(a, { tool: 'bash', provider: 'openai' }).allowed,
    timeoutMs: h.settings.get().requests.defaultTimeoutMs,
    sessions: h.store.listSessions({ status: 'all', limit: 100 }).length,
  };
}

/** Changes every cache at once: an "always" rule, a pause, spend, trips, a setting, a session. */
function changeEverything(h: EngineHarness, a: AgentCaller): void {
  const e = h.engine;
  const filed = e.request(a, push) as { requestId: string };
  e.admin.call('decide', { requestId: filed.requestId, decision: 'approve', scope: 'always' });
  e.admin.call('pause', { agent: a.agent, reason: 'lunch' });
  e.usage(a, { model: 'gpt-4o', inputTokens: 1000, outputTokens: 1000, costUsd: 2 });
  for (let i = 0; i < 5; i++)
    e.outcome(a, { ok: false, source: 'tool', tool: 'bash', message: 'x' });
  e.outcome(a, { ok: false, source: 'llm', provider: 'openai', httpStatus: 402 });
  e.admin.call('settings.set', { key: 'requests.defaultTimeoutMs', value: 1234 });
  e.hello({ agent: 'agent-b' });
}

describe('caches follow the database', () => {
  let h: EngineHarness;
  afterEach(() => h.close());

  it('a failed commit leaves rules, controls, sessions, guards and settings as before', async () => {
    const faults = new FaultyStore();
    h = new EngineHarness(faults.wrap);
    const a = h.hello();
    await h.work.durable();
    const before = behaviour(h, a);
    await h.work.durable();
    expect(before).toMatchObject({ pushTier: 'ask', control: 'running', tool: 'closed' });

    h.events.length = 0;
    changeEverything(h, a);
    // Inside the batch the change is visible (the units share its fate) ...
    expect(h.engine.admin.call('rules.list', {}).rules.map((r) => r.action)).toEqual(['git_push']);
    expect(h.controlOf(a.agent)).toBe('paused');
    expect(breakerState(h, `tool:${a.agent}:bash`)).toBe('open');
    // ... and when its commit fails, every waiting caller hears of it and nothing remains.
    faults.failCommits = 1;
    await expect(h.work.durable()).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(h.events).toEqual([]);
    expect(behaviour(h, a)).toEqual(before);
    await h.work.durable();

    // The "always" rule never approves: a new push still waits for the person.
    expect(h.engine.request(a, push)).toMatchObject({ status: 'queued' });
    await h.work.durable();
    // And the same changes, committed, do stick (the test could fail).
    changeEverything(h, a);
    await h.work.durable();
    const after = behaviour(h, a);
    for (const part of ['runBreaker', 'errors', 'ladder'] as const)
      expect(after[part]).not.toEqual(before[part]);
    expect(after).toMatchObject({
      rules: ['git_push'],
      pushTier: 'auto',
      control: 'paused',
      sessionCost: 2,
      tool: 'open',
      provider: true,
      check: false,
      timeoutMs: 1234,
      sessions: 2,
    });
  });

  it('a unit that throws halfway leaves every cache unchanged', async () => {
    h = new EngineHarness();
    const a = h.hello();
    await h.work.durable();
    const before = behaviour(h, a);
    await h.work.durable();
    expect(() =>
      h.work.run(() => {
        changeEverything(h, a);
        throw new Error('halfway');
      }),
    ).toThrow('halfway');
    expect(behaviour(h, a)).toEqual(before);
    await h.work.durable();
    expect(behaviour(h, a)).toEqual(before);
  });

  it('a unit rolled back inside a batch keeps the units before it', async () => {
    h = new EngineHarness();
    const a = h.hello();
    await h.work.durable();
    h.engine.admin.call('rules.add', { action: 'deploy', tier: 'auto' });
    expect(() =>
      h.work.run(() => {
        h.engine.admin.call('rules.add', { action: 'git_push', tier: 'auto' });
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(h.engine.admin.call('rules.list', {}).rules.map((r) => r.action)).toEqual(['deploy']);
    await h.work.durable();
    expect(h.engine.admin.call('rules.list', {}).rules.map((r) => r.action)).toEqual(['deploy']);
    expect(h.engine.classify(a, { action: 'git_push' }).tier).toBe('ask');
  });

  it('a full disk that makes SQLite drop the whole batch drops every unit of it', async () => {
    h = new EngineHarness();
    const a = h.hello();
    await h.work.durable();
    const before = behaviour(h, a);
    await h.work.durable();

    h.engine.admin.call('rules.add', { action: 'git_push', tier: 'auto' });
    h.engine.admin.call('pause', { agent: a.agent });
    const first = h.work.durable();
    // The database may not grow by one more page: the next big write fails as a full disk.
    const pages = h.db.pragma('page_count', { simple: true }) as number;
    h.db.pragma(`max_page_count = ${pages}`);
    expect(() => h.engine.admin.call('pause', { reason: 'x'.repeat(200_000) })).toThrow(
      expect.objectContaining({ code: 'SQLITE_FULL' }) as Error,
    );
    await expect(first).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    h.db.pragma('max_page_count = 1073741823');
    expect(behaviour(h, a)).toEqual(before);
    await h.work.durable();
    // A new batch opens on the next change and commits.
    h.engine.admin.call('rules.add', { action: 'deploy', tier: 'auto' });
    await h.work.durable();
    expect(h.store.listRules().map((r) => r.action)).toEqual(['deploy']);
  });
});
