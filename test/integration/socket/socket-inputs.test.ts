/**
 * "Inputs are data, never code paths", and the per-session queue quota, over the real
 * socket with the real daemon.
 */
import { describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { defaultSettings, withSettingByKey } from '../../../shared/settings/index';
import { daemonPerDescribe, type TestDaemon } from '../../support/daemon';
import { errorCode, rawSession } from '../../support/raw-socket';

const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('inputs are data (real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));

  it('prototype names as actions, models, phases, providers and tools get normal answers', async () => {
    const agent = await d.agent({ agent: 'proto' });
    for (const name of PROTO_NAMES) {
      const c = await agent.classify({ action: name });
      expect(c).toMatchObject({ tier: 'ask', rule: 'default:unknown' });
      const r = await agent.request({ action: name, description: `do ${name}`, wait: false });
      expect(r.status).toBe('queued');
      await expect(
        agent.usage({ model: name, inputTokens: 1, outputTokens: 1 }),
      ).rejects.toMatchObject({
        code: -32602,
      });
      expect(
        (
          await agent.usage({
            model: name,
            inputTokens: 1,
            outputTokens: 1,
            costUsd: 0.01,
            phase: name,
          })
        ).costUsd,
      ).toBe(0.01);
      const check = await agent.check({
        phase: name,
        iteration: 1,
        progress: false,
        provider: name,
        tool: name,
      });
      expect(check.allowed).toBe(true);
      expect(
        await agent.outcome({ ok: true, source: name, provider: name, tool: name, durationMs: 5 }),
      ).toHaveProperty('verdicts');
    }
    // A failure under such names is counted like any other, without an internal error.
    const failed = await agent.outcome({
      ok: false,
      source: '__proto__',
      provider: 'constructor',
      tool: 'toString',
      message: 'boom',
    });
    expect(Array.isArray(failed.verdicts)).toBe(true);
    agent.close();
  });

  it('settings keys with prototype segments or unknown keys are -32602 and change nothing', async () => {
    for (const key of [
      '__proto__.hasOwnProperty',
      '__proto__.polluted',
      'constructor.prototype.polluted',
      'requests.constructor',
      'requests.__proto__.x',
      'budgets.agents.__proto__',
      'no.such.key',
    ]) {
      await expect(admin.call('settings.set', { key, value: 1 })).rejects.toMatchObject({
        code: -32602,
      });
    }
    const { settings } = await admin.call('settings.get', {});
    expect(settings).toHaveProperty('requests');
    const agent = await d.agent({ agent: 'after-settings' });
    expect((await agent.classify({ action: 'read_file' })).tier).toBe('auto');
    agent.close();
    // In this process too: the key walker never reaches Object.prototype.
    expect(withSettingByKey(defaultSettings(), '__proto__.polluted', 1)).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an absurd costUsd is -32602 and exhausts no budget', async () => {
    const agent = await d.agent({ agent: 'spender' });
    for (const costUsd of [1e308, 1001]) {
      await expect(
        agent.usage({ model: 'gpt-4o', inputTokens: 1, outputTokens: 1, costUsd }),
      ).rejects.toMatchObject({ code: -32602 });
    }
    await expect(
      agent.usage({ model: 'gpt-4o', inputTokens: 2e9, outputTokens: 1, costUsd: 1 }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(agent.check({ estimatedCostUsd: 1e308 })).rejects.toMatchObject({ code: -32602 });
    const s = rawSession(d.socketPath);
    s.send('{"jsonrpc":"2.0","id":1,"method":"hello","params":{"agent":"raw-spender"}}');
    await s.next(1);
    s.send(
      '{"jsonrpc":"2.0","id":2,"method":"usage","params":{"model":"m","inputTokens":1,"outputTokens":1,"costUsd":1e999}}',
    );
    expect(errorCode(await s.next(2))).toBe(-32602);
    s.socket.destroy();
    const other = await d.agent({ agent: 'bystander' });
    expect((await other.check({ estimatedCostUsd: 0.01 })).allowed).toBe(true);
    expect((await agent.check({})).allowed).toBe(true);
    for (const c of [agent, other]) c.close();
  });

  it('JSON nested 100k deep is -32600 and the connection keeps working', async () => {
    const s = rawSession(d.socketPath);
    s.send('{"jsonrpc":"2.0","id":1,"method":"hello","params":{"agent":"deep"}}');
    await s.next(1);
    const deep = `{"jsonrpc":"2.0","id":2,"method":"request","params":{"action":"x","description":"y","context":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
    s.send(deep);
    expect(errorCode(await s.next(2))).toBe(-32600);
    s.send(
      `{"jsonrpc":"2.0","id":3,"method":"log","params":{"type":"t","description":"d","details":${'{"a":'.repeat(70)}1${'}'.repeat(70)}}}`,
    );
    expect(errorCode(await s.next(3))).toBe(-32600);
    // Brackets inside strings are data.
    s.send(
      `{"jsonrpc":"2.0","id":4,"method":"log","params":{"type":"t","description":"${'['.repeat(1000)}"}}`,
    );
    expect((await s.next(4))?.result).toEqual({ ok: true });
    s.socket.destroy();
  });

  it('a session may queue at most requests.maxQueuedPerSession requests (-32004 past it)', async () => {
    await admin.call('settings.set', { key: 'requests.maxQueuedPerSession', value: 3 });
    const agent = await d.agent({ agent: 'queuer' });
    for (let i = 0; i < 3; i++)
      expect(
        (await agent.request({ action: 'deploy', description: `d${i}`, wait: false })).status,
      ).toBe('queued');
    const over = await agent.request({
      action: 'deploy',
      description: 'one too many',
      wait: false,
    });
    expect(over.status).toBe('denied');
    expect(over.reason).toMatch(/-32004.*3 requests waiting.*maxQueuedPerSession/);
    // Auto-approved requests do not queue, and another session has its own quota.
    expect((await agent.request({ action: 'read_file', description: 'r' })).status).toBe(
      'approved',
    );
    const other = await d.agent({ agent: 'queuer-2' });
    expect((await other.request({ action: 'deploy', description: 'd', wait: false })).status).toBe(
      'queued',
    );
    for (const c of [agent, other]) c.close();
  });
});
