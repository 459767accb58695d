import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';

/** Every fraction in a text: at most twelve significant digits means no float noise. */
const noisy = (text: string): string[] =>
  (text.match(/\d+\.\d+/g) ?? []).filter((n) => n.replace('.', '').replace(/^0+/, '').length > 12);

describe('no float noise in replies or views (real daemon, real socket, CLI and HTTP)', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await TestDaemon.start({});
  });
  afterAll(async () => {
    await d.stop();
  });

  it('spend sums read as the amounts they are: 0.1 + 0.2 is 0.3, in the agent reply, the CLI and the dashboard API', async () => {
    const agent = await d.agent({ agent: 'spender' });
    const replies = [];
    for (const costUsd of [0.1, 0.2, 0.263, 0.226, 0.1])
      replies.push(
        await agent.usage({ model: 'gpt-4o', inputTokens: 10, outputTokens: 3, costUsd }),
      );
    // Priced from tokens: 12345 in and 6789 out of gpt-4o is not a round amount either.
    replies.push(await agent.usage({ model: 'gpt-4o', inputTokens: 12345, outputTokens: 6789 }));
    expect(replies[1]!.spent).toEqual({ session: 0.3, day: 0.3 });
    expect(replies[3]!.spent.session).toBe(0.789);
    expect(noisy(JSON.stringify(replies))).toEqual([]);
    const check = await agent.check({ estimatedCostUsd: 0.3 });
    expect(noisy(JSON.stringify(check))).toEqual([]);

    const budgets = await d.cli(['budgets', '--json']);
    expect(noisy(budgets.stdout)).toEqual([]);
    const parsed = JSON.parse(budgets.stdout) as { spent: { dayUsd: number } };
    expect(parsed.spent.dayUsd).toBe(Number((0.889 + replies[5]!.costUsd).toPrecision(12)));

    const { summary } = await agent.end('completed');
    expect(noisy(JSON.stringify(summary))).toEqual([]);
    agent.close();
    expect(noisy((await d.cli(['sessions', '--json'])).stdout)).toEqual([]);

    // The dashboard's API rounds at the same boundary.
    const url = new URL(d.dashboardUrl!);
    const secret = new URLSearchParams(url.hash.slice(1)).get('secret')!;
    const response = await fetch(`${url.origin}/api/guards.budgets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Gatehouse-Secret': secret },
      body: '{}',
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain('"dayUsd":');
    expect(noisy(text)).toEqual([]);
  });
});
