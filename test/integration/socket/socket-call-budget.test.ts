/**
 * "Load that must not cost the others": `await` calls are capped per connection and
 * per session, calls sent as notifications count in the same budget as answered ones, and a
 * connection's calls running at once are capped; beyond a cap the call gets -32004 and nothing
 * runs. Over the real socket of a real daemon, with the caps made small.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { TestDaemon } from '../../support/daemon';
import { errorCode, rawSession } from '../../support/raw-socket';

const PER_CONNECTION = 5;
const PER_SESSION = 8;
const IN_FLIGHT = 12;

type Raw = ReturnType<typeof rawSession>;

async function helloed(d: TestDaemon, agent: string, sessionKey: string): Promise<Raw> {
  const s = rawSession(d.socketPath);
  await s.connected;
  const answer = await s.call('hello', { agent, sessionKey });
  expect(answer?.result).toBeTruthy();
  return s;
}

/** Files an `ask` request without waiting; resolves with its id. */
async function filed(s: Raw, description: string): Promise<string> {
  const answer = await s.call('request', { action: 'git_push', description, wait: false });
  const result = answer?.result as { status: string; requestId: string };
  expect(result.status).toBe('queued');
  return result.requestId;
}

const awaitLine = (requestId: string, id?: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    ...(id === undefined ? {} : { id }),
    method: 'await',
    params: { requestId, timeoutMs: 60_000 },
  });

/** Whether the daemon still answers a cheap call on `s` (so earlier lines were all handled). */
async function settled(s: Raw): Promise<void> {
  expect((await s.call('classify', { action: 'read_file' }))?.result).toBeTruthy();
}

describe('call budget (real daemon, small caps)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  beforeAll(async () => {
    d = await TestDaemon.start(
      {
        GATEHOUSE_MAX_AWAITS_PER_CONNECTION: String(PER_CONNECTION),
        GATEHOUSE_MAX_AWAITS_PER_SESSION: String(PER_SESSION),
        GATEHOUSE_MAX_CALLS_IN_FLIGHT: String(IN_FLIGHT),
      },
      ['--no-dashboard'],
    );
    admin = await d.admin();
  });
  afterAll(async () => {
    admin?.close();
    await d.stop();
  });

  it('refuses an await beyond the per-connection cap with -32004, and frees the place once decided', async () => {
    const s = await helloed(d, 'awaiter', 'conn-cap');
    const requestId = await filed(s, 'push once');
    for (let i = 0; i < PER_CONNECTION; i++) s.send(awaitLine(requestId, 100 + i));
    const refused = await s.call('await', { requestId, timeoutMs: 60_000 });
    expect(errorCode(refused)).toBe(-32004);
    expect(String((refused?.error as { message: string }).message)).toContain('await calls');
    // The waiting ones were not touched: they are answered by the decision.
    await admin.call('decide', { requestId, decision: 'approve' });
    for (let i = 0; i < PER_CONNECTION; i++) {
      const m = await (async () => {
        for (;;) {
          const found = s.messages.find((x) => x.id === 100 + i);
          if (found) return found;
          await s.next();
        }
      })();
      expect((m.result as { status: string }).status).toBe('approved');
    }
    // The places are free again.
    const again = await s.call('await', { requestId, timeoutMs: 0 });
    expect((again?.result as { status: string }).status).toBe('approved');
    s.socket.destroy();
  });

  it('counts awaits sent as notifications (no id) in the same cap', async () => {
    const s = await helloed(d, 'notifier', 'notify-cap');
    const requestId = await filed(s, 'push by notification');
    for (let i = 0; i < PER_CONNECTION; i++) s.send(awaitLine(requestId));
    await settled(s);
    const refused = await s.call('await', { requestId, timeoutMs: 60_000 });
    expect(errorCode(refused)).toBe(-32004);
    await admin.call('decide', { requestId, decision: 'deny', reason: 'bench' });
    s.socket.destroy();
  });

  it('caps awaits per session over all its connections', async () => {
    const first = await helloed(d, 'shared', 'session-cap');
    const second = await helloed(d, 'shared', 'session-cap');
    const requestId = await filed(first, 'push from a shared session');
    for (let i = 0; i < PER_CONNECTION; i++) first.send(awaitLine(requestId));
    await settled(first);
    for (let i = 0; i < PER_SESSION - PER_CONNECTION; i++) second.send(awaitLine(requestId));
    await settled(second);
    const refused = await second.call('await', { requestId, timeoutMs: 60_000 });
    expect(errorCode(refused)).toBe(-32004);
    expect(String((refused?.error as { message: string }).message)).toContain('this session');
    // Another session is not held back by this one's waits.
    const other = await helloed(d, 'shared', 'another-session');
    const otherId = await filed(other, 'push from another session');
    other.send(awaitLine(otherId));
    await settled(other);
    await admin.call('decide', { requestId, decision: 'deny', reason: 'bench' });
    await admin.call('decide', { requestId: otherId, decision: 'deny', reason: 'bench' });
    for (const s of [first, second, other]) s.socket.destroy();
  });

  it('caps the calls of one connection running at once, waiting requests included', async () => {
    const s = await helloed(d, 'waiter', 'in-flight-cap');
    for (let i = 0; i < IN_FLIGHT; i++)
      s.send(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'request',
          params: { action: 'git_push', description: `wait ${i}`, timeoutMs: 60_000 },
        }),
      );
    const refused = await s.call('classify', { action: 'read_file' });
    expect(errorCode(refused)).toBe(-32004);
    expect(String((refused?.error as { message: string }).message)).toContain('calls running');
    const { requests } = await admin.call('pending.list', { limit: 100 });
    const mine = requests.filter((r) => r.description.startsWith('wait '));
    expect(mine).toHaveLength(IN_FLIGHT);
    // Deciding one frees one place.
    await admin.call('decide', { requestId: mine[0]!.requestId, decision: 'approve' });
    await expect
      .poll(async () => (await s.call('classify', { action: 'read_file' }))?.result)
      .toBeTruthy();
    for (const r of mine.slice(1))
      await admin.call('decide', { requestId: r.requestId, decision: 'deny', reason: 'done' });
    s.socket.destroy();
  });
});
