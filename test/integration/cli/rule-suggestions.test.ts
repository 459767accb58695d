import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCode, rawSession } from '../../support/raw-socket';
import { TestDaemon } from '../../support/daemon';

const PROJECT = '/work/shop';
const PUSH = 'git push origin main';

describe('rule suggestions (real daemon, real socket, real CLI)', () => {
  let d: TestDaemon;
  beforeEach(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterEach(async () => {
    await d.stop();
  });

  it('5 approvals of the same push → `gatehouse log` suggests the rule → accept → that push is approved by rule, another command still asks', async () => {
    const agent = await d.agent({ agent: 'shipper', project: PROJECT });
    const push = (command: string) =>
      agent.request({ action: 'git_push', description: `push: ${command}`, command, wait: false });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const q = await push(PUSH);
      expect(q.status).toBe('queued');
      if (i === 4) {
        // Four approvals are not enough.
        const log4 = await d.cli(['log']);
        expect(log4.stdout).not.toContain('Suggestion');
      }
      const approved = await d.cli(['approve', q.requestId]);
      expect(approved.code).toBe(0);
      ids.push(q.requestId);
    }

    const log = await d.cli(['log']);
    expect(log.code).toBe(0);
    const described = `git_push with command \`${PUSH}\` in project ${PROJECT}`;
    expect(log.stdout).toContain(`You approved 5 times and never denied: ${described}`);
    expect(log.stdout).toContain(
      'Asked by shipper (5) in 1 session; decided by a person each time, via cli (5).',
    );
    expect(log.stdout).toContain(`Requests: ${[...ids].reverse().join(', ')}`);
    const key = /Suggestion ([0-9a-f]{16}): make it a rule\?/.exec(log.stdout)?.[1];
    expect(key).toBeDefined();

    const json = JSON.parse((await d.cli(['log', '--json'])).stdout) as {
      suggestions: { key: string; approvals: number }[];
    };
    expect(json.suggestions).toMatchObject([{ key, approvals: 5 }]);

    const accept = await d.cli(['suggestions', 'accept', key!]);
    expect(accept.code).toBe(0);
    expect(accept.stdout).toMatch(
      new RegExp(`created rule rul-\\S+: ${described.replace(/[`.]/g, '\\$&')}`),
    );

    expect(await push(PUSH)).toMatchObject({ status: 'approved', decidedBy: 'rule' });
    expect(await push('git push --force origin main')).toMatchObject({ status: 'queued' });
    expect((await d.cli(['log'])).stdout).not.toContain('Suggestion');
    expect((await d.cli(['suggestions'])).stdout).toContain('No suggestions.');

    const admin = await d.admin();
    const [audit] = (await admin.call('audit.query', { type: 'suggestion.accepted' })).events;
    expect(audit!.data).toMatchObject({ key, approvals: 5, via: 'cli' });
    admin.close();
    agent.close();
  });

  it('"not now" from the CLI hides it, across a daemon restart; an unknown key exits 3', async () => {
    const agent = await d.agent({ agent: 'shipper', project: PROJECT });
    for (let i = 0; i < 5; i++) {
      const q = await agent.request({
        action: 'git_push',
        description: 'push',
        command: PUSH,
        wait: false,
      });
      expect((await d.cli(['approve', q.requestId])).code).toBe(0);
    }
    agent.close();
    const listed = await d.cli(['suggestions', '--json']);
    const [s] = JSON.parse(listed.stdout) as { key: string }[];
    const snooze = await d.cli(['suggestions', 'snooze', s!.key]);
    expect(snooze.code).toBe(0);
    expect(snooze.stdout).toContain(`Suggestion ${s!.key} hidden until`);
    await d.signal('SIGTERM');
    await d.launch(['--no-dashboard']);
    expect((await d.cli(['suggestions'])).stdout).toContain('No suggestions.');
    const unknown = await d.cli(['suggestions', 'accept', s!.key]);
    expect(unknown.code).toBe(3);
    expect((await d.cli(['rules', '--json'])).stdout.trim()).toBe('[]');
  });

  it('agents cannot reach the suggestion methods (-32601), even with a suggestion waiting', async () => {
    const agent = await d.agent({ agent: 'shipper', project: PROJECT });
    for (let i = 0; i < 5; i++) {
      const q = await agent.request({
        action: 'git_push',
        description: 'push',
        command: PUSH,
        wait: false,
      });
      expect((await d.cli(['approve', q.requestId])).code).toBe(0);
    }
    const [s] = JSON.parse((await d.cli(['suggestions', '--json'])).stdout) as { key: string }[];
    const raw = rawSession(d.socketPath);
    await raw.connected;
    expect((await raw.call('hello', { agent: 'shipper', project: PROJECT }))?.result).toBeDefined();
    expect(errorCode(await raw.call('suggestions.list', {}))).toBe(-32601);
    expect(errorCode(await raw.call('suggestions.accept', { key: s!.key }))).toBe(-32601);
    expect(errorCode(await raw.call('suggestions.snooze', { key: s!.key }))).toBe(-32601);
    raw.socket.destroy();
    // Nothing changed: no rule, and the push still asks.
    expect((await d.cli(['rules', '--json'])).stdout.trim()).toBe('[]');
    expect(
      await agent.request({ action: 'git_push', description: 'push', command: PUSH, wait: false }),
    ).toMatchObject({ status: 'queued' });
    agent.close();
  });
});
