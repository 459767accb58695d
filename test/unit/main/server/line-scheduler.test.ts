/**
 * The socket's line scheduler (fairness): connections pipelining a few calls are
 * served before deep backlogs, and deep backlogs are slowed, never starved.
 */
import { describe, expect, it } from 'vitest';
import { LineScheduler, type LineSource } from '../../../../main/server/line-scheduler';

/** A source whose lines are recorded in one shared log when handled. */
function source(name: string, lines: number, log: string[]): LineSource & { left: number } {
  return {
    left: lines,
    get waitingLines() {
      return this.left;
    },
    handleOne() {
      this.left--;
      log.push(name);
      return this.left > 0;
    },
  };
}

const turnsUntil = async (done: () => boolean) => {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
};

describe('LineScheduler', () => {
  const options = { maxLinesPerTurn: 32, budgetMs: 1000, deepBudgetMs: 1000, shallowLines: 8 };

  it('serves an agent pipelining a few calls before a deep backlog that woke first', async () => {
    const log: string[] = [];
    const s = new LineScheduler(options);
    const flood = source('flood', 5000, log);
    const agent = source('agent', 3, log);
    s.wake(flood);
    s.wake(agent);
    await turnsUntil(() => agent.left === 0);
    expect(log.slice(0, 3)).toEqual(['agent', 'agent', 'agent']);
    // Its turn ended there: the agent's calls are committed and answered before the backlog.
    expect(log.filter((n) => n === 'flood').length).toBe(0);
  });

  it('gives deep backlogs at least every other turn while shallow calls keep coming', async () => {
    const log: string[] = [];
    const s = new LineScheduler(options);
    const flood = source('flood', 5000, log);
    s.wake(flood);
    // An agent with one call in every turn, for 100 turns.
    for (let i = 0; i < 100; i++) {
      s.wake(source('agent', 1, log));
      await new Promise((r) => setImmediate(r));
    }
    await turnsUntil(() => flood.left === 0);
    const agentLines = log.filter((n) => n === 'agent').length;
    expect(agentLines).toBe(100);
    // About half of those 100 turns served the backlog, 32 lines each.
    expect(
      log.slice(0, log.lastIndexOf('agent')).filter((n) => n === 'flood').length,
    ).toBeGreaterThan(32 * 40);
  });

  it('round-robins deep backlogs, one line each per round', async () => {
    const log: string[] = [];
    const s = new LineScheduler({ ...options, maxLinesPerTurn: 2 });
    const a = source('a', 20, log);
    const b = source('b', 20, log);
    s.wake(a);
    s.wake(b);
    await turnsUntil(() => a.left === 0 && b.left === 0);
    expect(log.slice(0, 8)).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
  });
});
