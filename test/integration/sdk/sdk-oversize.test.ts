import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { MAX_CONTEXT_BYTES } from '../../../shared/protocol/constants';
import type { AgentParams } from '../../../shared/protocol/method-map';
import { daemonPerDescribe, type TestDaemon } from '../../support/daemon';

/**
 * Size: an SDK call larger than Gatehouse parses is answered as the hook's oversize
 * calls are (`protected:too_large`, critical, always asks), not refused with a schema error
 * the agent might read as "Gatehouse is broken, carry on". Real SDK client, real daemon.
 */
describe('SDK classify and request over the size Gatehouse parses (real SDK, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));
  beforeAll(async () => {
    agent = await d.agent({ agent: 'sdk-oversize', project: '/tmp/sdk-oversize-project' });
  });
  afterAll(() => agent?.close());

  /** `cat README.md` (auto by itself), padded past what the daemon parses. */
  const padded = `cat README.md ${'#'.repeat(MAX_CONTEXT_BYTES + 10)}`;

  it('the same calls, small, stay auto (calibration)', async () => {
    for (const params of [
      { action: 'read_file', paths: ['README.md'] },
      { action: 'read_file', target: 'README.md' },
    ])
      expect((await agent.classify(params)).tier).toBe('auto');
  });

  const cases: [string, AgentParams<'classify'>][] = [
    ['a command', { action: 'read_file', command: padded }],
    ['a target', { action: 'read_file', target: 'x'.repeat(5000) }],
    ['a path', { action: 'read_file', paths: [`src/${'a'.repeat(5000)}`] }],
    ['many paths', { action: 'read_file', paths: Array.from({ length: 1500 }, (_, i) => `f${i}`) }],
  ];
  it.each(cases)('classify of %s too large asks as protected:too_large', async (_what, params) => {
    const c = await agent.classify(params);
    expect(c).toMatchObject({ tier: 'ask', rule: 'protected:too_large', risk: 'critical' });
    expect(c.reason).toContain('too large to check');
  });

  it('a request too large is filed as protected:too_large, its start shown', async () => {
    const context = { log: 'y'.repeat(MAX_CONTEXT_BYTES + 1) };
    const answer = await agent.request({
      action: 'run_command',
      command: padded,
      description: 'run it',
      context,
      wait: false,
    });
    expect(answer.status).toBe('queued');
    const { requests } = await admin.call('requests.query', {});
    const filed = requests.find((r) => r.requestId === answer.requestId);
    expect(filed).toMatchObject({ rule: 'protected:too_large', risk: 'critical' });
    expect(filed?.command?.startsWith('cat README.md #')).toBe(true);
  });

  it('a description alone too long is clipped and asks the same way', async () => {
    const answer = await agent.request({
      action: 'read_file',
      paths: ['README.md'],
      description: 'd'.repeat(9000),
      wait: false,
    });
    expect(answer.status).toBe('queued');
    const { requests } = await admin.call('requests.query', {});
    expect(requests.find((r) => r.requestId === answer.requestId)?.rule).toBe(
      'protected:too_large',
    );
  });
});
