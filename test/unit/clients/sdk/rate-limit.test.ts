/**
 * The SDK and the per-connection rate limit: a call refused with -32004 and `retryAfterMs`
 * is waited out and sent again (against a real RpcSession on a real socket, on the system
 * clock so that the wait is real), and only that refusal is retried.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GatehouseClient } from '../../../../clients/sdk/client';
import { retryAfterMsOf } from '../../../../clients/sdk/rate-limit';
import { RpcError } from '../../../../clients/sdk/rpc-client';
import { systemClock } from '../../../../shared/node/system-clock';
import { ErrorCode } from '../../../../shared/protocol/errors';
import { sessionServer } from '../../../support/session-server';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a rate-limited call through the SDK', () => {
  it('waits as told and sends again, so every call is answered instead of refused', async () => {
    const { path } = await sessionServer(cleanups, {
      rateLimitPerSecond: 5,
      sessionClock: systemClock,
    });
    const gh = await GatehouseClient.connect({
      agent: 'eager',
      socketPath: path,
      reconnect: false,
    });
    cleanups.push(() => gh.close());
    // hello took one of the second's five calls: four go through, the other five are refused
    // at first and get through one every 200 ms.
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        gh.classify({ action: 'read_file', paths: [`src/${i}.ts`] }),
      ),
    );
    const request = await gh.request({ action: 'read_file', description: 'read src/a.ts' });
    const refusedNone = await gh.request({ action: 'read_file', description: 'read src/b.ts' });
    const elapsedMs = performance.now() - started;
    expect(answers.map((a) => a.tier)).toEqual(Array(7).fill('auto'));
    // Not denied by a refusal the agent could have waited out.
    expect(request.status).toBe('approved');
    expect(refusedNone.status).toBe('approved');
    expect(elapsedMs).toBeGreaterThanOrEqual(800);
  });

  it('retries only the rate limit, and never waits longer than a second at once', () => {
    const limited = (data?: unknown) =>
      new RpcError(ErrorCode.RateLimited, 'rate limited: slow down', data);
    expect(retryAfterMsOf(limited({ retryAfterMs: 334 }))).toBe(334);
    expect(retryAfterMsOf(limited({ retryAfterMs: 0.2 }))).toBe(1);
    // A hostile or broken server cannot park the agent.
    expect(retryAfterMsOf(limited({ retryAfterMs: 3_600_000 }))).toBe(1000);
    expect(retryAfterMsOf(limited({ retryAfterMs: -5 }))).toBeUndefined();
    expect(retryAfterMsOf(limited({ retryAfterMs: '10' }))).toBeUndefined();
    // Too many queued requests or waiting awaits: waiting a moment does not cure those.
    expect(retryAfterMsOf(limited())).toBeUndefined();
    expect(retryAfterMsOf(new RpcError(ErrorCode.AgentPaused, 'paused'))).toBeUndefined();
    expect(retryAfterMsOf(new Error('rate limited: slow down'))).toBeUndefined();
  });
});
