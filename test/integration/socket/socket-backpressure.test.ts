/**
 * Backpressure: a connection that pipelines calls without reading their replies is
 * held back after a small allowance of replies (16 KiB beyond the kernel's socket buffer) and
 * served again once it reads; an agent with many calls parked waiting for a human is never
 * held back by them. Real daemon, real socket.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { DEFAULT_SOCKET_LIMITS } from '../../../main/server/socket-limits';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { daemonPerDescribe, type TestDaemon } from '../../support/daemon';
import { rawSession, type RawMessage } from '../../support/raw-socket';

/** A socket's send buffer as the kernel sizes it (Linux; its usual default elsewhere). */
function kernelSendBuffer(): number {
  try {
    return Number(readFileSync('/proc/sys/net/core/wmem_default', 'utf8'));
  } catch {
    return 212_992;
  }
}

const line = (id: number, method: string, params: object) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

/**
 * Calls a non-reading connection may get served before it is held back: what the kernel's
 * socket buffer and the daemon's 16 KiB mark hold of replies of at least 100 bytes. Usually
 * about 560 on Linux: the kernel counts each write with its overhead, and a turn's replies
 * go in one write. Under load a turn carries more replies per write, and one clean-clone run
 * served 1,573 before the hold. (A 64 KiB mark gave about 2,000 unloaded, 1 MiB about 10,000.)
 */
const MAX_SERVED_UNREAD = Math.ceil(
  (kernelSendBuffer() + DEFAULT_SOCKET_LIMITS.outputHighWaterBytes) / 100,
);

describe('socket backpressure (real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));

  /**
   * `classify` calls of `agent` the daemon has handled: each is audited, repeats counted into
   * one entry (`data.count`, audit.classifyFoldMs).
   */
  const classified = async (agent: string) =>
    (
      await admin.call('audit.query', { type: 'action.classified', agent, limit: 5000 })
    ).events.reduce((n, e) => n + (typeof e.data.count === 'number' ? e.data.count : 1), 0);

  /** Round trips of a reading agent: the scheduler serves waiting connections in between. */
  const roundTrips = async (agent: GatehouseClient, n: number) => {
    for (let i = 0; i < n; i++)
      expect((await agent.classify({ action: 'git_status' })).tier).toBe('auto');
  };

  it('stops serving a connection that does not read its replies, and resumes when it reads', async () => {
    const flood = rawSession(d.socketPath);
    flood.send(line(1, 'hello', { agent: 'flooder' }));
    await flood.next(1);
    flood.socket.pause(); // replies are not read from here on
    const calls = 20_000; // about 1.6 MB of calls, far more than the allowance
    let text = '';
    for (let i = 0; i < calls; i++) text += line(i + 2, 'classify', { action: 'read_file' });
    flood.socket.write(text);

    // While it is served, every round trip of the bystander lets it through a few more calls
    // (round-robin); once held back, its count stops growing however many round trips pass.
    const bystander = await d.agent({ agent: 'bystander' });
    let served = -1;
    for (let round = 0; ; round++) {
      await roundTrips(bystander, 100);
      const now = await classified('flooder');
      if (now === served && now > 0) break;
      served = now;
      expect(round).toBeLessThan(200);
    }
    expect(served).toBeLessThan(MAX_SERVED_UNREAD);
    expect(flood.messages.length).toBe(1); // nothing read yet

    // Reading again: it is served to the end, every call answered once.
    flood.socket.resume();
    await flood.next(calls + 1);
    const ids = new Set(flood.messages.slice(1).map((m: RawMessage) => m.id));
    expect(ids.size).toBe(calls);
    expect(flood.messages.every((m) => m.result !== undefined)).toBe(true);
    expect(await classified('flooder')).toBe(calls);
    await roundTrips(bystander, 10);
    bystander.close();
    flood.socket.destroy();
  }, 120_000);

  it('never holds back an agent for its calls parked waiting for a human', async () => {
    const agent = rawSession(d.socketPath);
    agent.send(line(1, 'hello', { agent: 'patient' }));
    await agent.next(1);
    const parked = 300;
    const push = (i: number, wait: boolean) =>
      line(1000 + i, 'request', { action: 'git_push', description: `push ${i}`, wait });
    // Half wait in `request`; the other half are filed without waiting, then awaited.
    let text = '';
    for (let i = 0; i < parked; i++) text += push(i, i % 2 === 0);
    agent.socket.write(text);
    const filed: string[] = [];
    for (let i = 1; i < parked; i += 2) {
      const answer = await agentAnswer(agent, 1000 + i);
      filed.push((answer.result as { requestId: string }).requestId);
    }
    agent.socket.write(
      filed.map((requestId, i) => line(5000 + i, 'await', { requestId })).join(''),
    );
    const { requests } = await admin.call('pending.list', { agent: 'patient' });
    expect(requests.length).toBe(parked);

    // Ordinary calls, a few pipelined at a time, all answered while those wait.
    let id = 10_000;
    for (let round = 0; round < 50; round++) {
      const ids = Array.from({ length: 8 }, () => ++id);
      agent.socket.write(ids.map((i) => line(i, 'classify', { action: 'read_file' })).join(''));
      for (const i of ids)
        expect((await agentAnswer(agent, i)).result).toMatchObject({ tier: 'auto' });
    }
    expect((await agent.call('log', { type: 'note', description: 'still here' }))?.result).toEqual({
      ok: true,
    });

    // The person decides them all: every parked call gets its answer, and the connection
    // still takes calls afterwards.
    const ids = requests.map((r) => r.requestId);
    for (let i = 0; i < ids.length; i += 100)
      await admin.call('decideMany', { requestIds: ids.slice(i, i + 100), decision: 'approve' });
    for (let i = 0; i < parked; i += 2)
      expect((await agentAnswer(agent, 1000 + i)).result).toMatchObject({ status: 'approved' });
    for (let i = 0; i < filed.length; i++)
      expect((await agentAnswer(agent, 5000 + i)).result).toMatchObject({ status: 'approved' });
    expect((await agent.call('classify', { action: 'read_file' }))?.result).toMatchObject({
      tier: 'auto',
    });
    agent.socket.destroy();
  }, 120_000);
});

/** Waits for the answer to call `id` on a raw session. */
async function agentAnswer(s: ReturnType<typeof rawSession>, id: number): Promise<RawMessage> {
  for (let seen = 0; ;) {
    const found = s.messages.find((m) => m.id === id);
    if (found) return found;
    if (s.closed) throw new Error(`connection closed before the answer to ${id}`);
    seen = s.messages.length;
    await s.next(seen + 1);
  }
}
