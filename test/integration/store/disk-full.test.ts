import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { RpcClient, RpcError } from '../../../clients/sdk/rpc-client';
import { TestDaemon } from '../../support/daemon';

/**
 * A real daemon whose database may not grow past a small cap (`GATEHOUSE_DB_MAX_MB`, which
 * sets SQLite's `max_page_count`): once it is full, writes answer -32603 DISK_FULL and
 * everything that only reads keeps working.
 */
let d: TestDaemon;
let admin: AdminClient;
let agent: RpcClient;

beforeAll(async () => {
  d = await TestDaemon.start({ GATEHOUSE_DB_MAX_MB: '0.75' }, ['--no-dashboard']);
  admin = await d.admin();
  agent = new RpcClient(d.socketPath);
  await agent.connect();
  await agent.call('hello', { agent: 'filler' });
});
afterAll(async () => {
  agent.close();
  admin.close();
  await d.stop();
});

const push = (contextBytes: number, i: number) => ({
  action: 'git_push',
  description: `push ${i}`,
  wait: false,
  context: { blob: 'x'.repeat(contextBytes) },
});

/** Files requests until one fails; returns the error and the ids filed before it. */
async function fillUp(contextBytes: number): Promise<{ error: RpcError; filed: string[] }> {
  const filed: string[] = [];
  for (let i = 0; i < 2000; i++) {
    try {
      const r = await agent.call<{ requestId: string }>('request', push(contextBytes, i));
      filed.push(r.requestId);
    } catch (error) {
      if (error instanceof RpcError) return { error, filed };
      throw error;
    }
  }
  throw new Error('the database never filled up');
}

describe('a full disk', () => {
  it('answers request with -32603 DISK_FULL, records nothing, and keeps serving', async () => {
    const { error, filed } = await fillUp(60_000);
    expect(filed.length).toBeGreaterThan(0);
    expect(error.code).toBe(-32603);
    expect(error.data).toEqual({ reason: 'DISK_FULL' });
    expect(error.message).toMatch(/disk is full/);
    expect(error.message).toMatch(/nothing was recorded/);

    // Nothing of the failed request was kept: the queue holds exactly what was answered.
    const { requests } = await admin.call('pending.list', {});
    expect(requests.map((r) => r.requestId).sort()).toEqual([...filed].sort());
    // Reads keep working, on this connection and others.
    expect((await admin.call('status', {})).pending).toBe(filed.length);
    expect(await agent.call('await', { requestId: filed[0]!, timeoutMs: 0 })).toMatchObject({
      requestId: filed[0],
      status: 'pending',
    });

    // Fill the last gaps with smaller requests; then a human decision with a long note
    // cannot be stored either, and the admin path says so the same way.
    const small = await fillUp(4_000);
    expect(small.error.data).toEqual({ reason: 'DISK_FULL' });
    const decided = admin.call('decide', {
      requestId: filed[0]!,
      decision: 'deny',
      message: 'm'.repeat(8192),
      reason: 'r'.repeat(8192),
    });
    await expect(decided).rejects.toMatchObject({ code: -32603, data: { reason: 'DISK_FULL' } });
    const after = await admin.call('pending.list', {});
    expect(after.requests.find((r) => r.requestId === filed[0])?.status).toBe('pending');
    expect(d.proc?.exitCode).toBeNull();
  });
});
