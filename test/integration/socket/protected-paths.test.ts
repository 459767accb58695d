import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { RpcError } from '../../../clients/sdk/rpc-client';
import { TestDaemon, waitForPending } from '../../support/daemon';

/**
 * Attacks over the real socket: an agent reading the admin token (by path, ~,
 * $GATEHOUSE_HOME, a symlink), with a user rule `read_file auto` and a session grant in place.
 * Gatehouse's data dir is where it is by default, under a temporary HOME.
 */
describe('protected paths and the gate method (real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  const fakeHome = mkdtempSync(join(tmpdir(), 'gatehouse-home-'));
  const data = join(fakeHome, '.local/share/gatehouse');
  const project = join(fakeHome, 'code/app');
  const token = join(data, 'admin.token');

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    d = await TestDaemon.start({ HOME: fakeHome, GATEHOUSE_HOME: data }, ['--no-dashboard']);
    symlinkSync(token, join(project, 'notes.txt'));
    admin = await d.admin();
    await admin.call('rules.add', { action: 'read_file', tier: 'auto' });
    agent = await d.agent({ agent: 'claude-code', project, sessionKey: 's-1' });
    // A session grant for read_file: approve one ordinary outside read for the session.
    const outside = agent.request({
      action: 'run_command',
      description: 'list the temp dir',
      command: 'ls /tmp',
    });
    const pending = await waitForPending(admin, 'run_command');
    await admin.call('decide', {
      requestId: pending.requestId,
      decision: 'approve',
      scope: 'session',
    });
    await outside;
  }, 60_000);

  afterAll(async () => {
    agent?.close();
    await d?.stop();
    rmSync(fakeHome, { recursive: true, force: true });
  });

  it.each([
    ['the token by path', { action: 'read_file', paths: [token] }],
    [
      'cat ~/.local/share/…',
      { action: 'read_file', command: 'cat ~/.local/share/gatehouse/admin.token' },
    ],
    [
      'cat $GATEHOUSE_HOME/admin.token',
      { action: 'read_file', command: 'cat $GATEHOUSE_HOME/admin.token' },
    ],
    ['a symlink to it', { action: 'read_file', paths: ['notes.txt'] }],
    ['a session-granted run_command', { action: 'run_command', command: `cat ${token}` }],
  ])('classify of %s always asks, critical', async (_, a) => {
    expect(await agent.classify(a)).toMatchObject({
      tier: 'ask',
      rule: 'protected:gatehouse',
      risk: 'critical',
    });
  });

  it('a request for the token waits for a human, shows as critical, and approves once only', async () => {
    const answer = agent.request({
      action: 'read_file',
      description: 'read the token',
      paths: [token],
      wait: true,
    });
    const pending = await waitForPending(admin, 'read_file');
    expect(pending).toMatchObject({ rule: 'protected:gatehouse', risk: 'critical' });
    // The CLI's views say so too.
    expect((await d.cli(['list'])).stdout).toMatch(/pending .* CRITICAL +\S+ +read_file/);
    expect((await d.cli(['show', pending.requestId])).stdout).toContain('Risk:        CRITICAL');
    for (const extra of [{ scope: 'session' }, { scope: 'always' }, { envelope: { uses: 3 } }]) {
      const refused = admin.call('decide', {
        requestId: pending.requestId,
        decision: 'approve',
        ...extra,
      } as never);
      await expect(refused).rejects.toMatchObject({ code: -32602 });
      await expect(refused).rejects.toThrow(/approve it once only/);
    }
    await admin.call('decide', { requestId: pending.requestId, decision: 'deny', reason: 'no' });
    expect(await answer).toMatchObject({ status: 'denied' });
    const rules = await admin.call('rules.list', {});
    expect(rules.rules.filter((r) => r.tier === 'auto').map((r) => r.action)).toEqual([
      'read_file',
    ]);
  });

  it('writing a .gatehouse.toml is change_gatehouse_policy; ~/.ssh asks high', async () => {
    expect(
      await agent.classify({ action: 'write_file', paths: [join(project, '.gatehouse.toml')] }),
    ).toMatchObject({ tier: 'ask', rule: 'protected:change_gatehouse_policy', risk: 'critical' });
    // No user rule allows search_files (the rule `read_file auto` is for another action).
    const fresh = await d.agent({ agent: 'other', project });
    expect(
      await fresh.classify({ action: 'search_files', paths: ['~/.ssh/id_rsa'] }),
    ).toMatchObject({
      tier: 'ask',
      rule: 'default:secret_path',
      risk: 'high',
    });
    fresh.close();
  });

  it('gate: a Bash git push waits and lands when an admin approves', async () => {
    const answer = agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Bash',
      input: { command: 'npm test && git push origin main' },
      toolUseId: 'tu-1',
      cwd: project,
    });
    const pending = await waitForPending(admin, 'git_push');
    expect(pending).toMatchObject({
      dedupeKey: 'claude-code:tu-1',
      command: 'npm test && git push origin main',
    });
    await admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    expect(await answer).toMatchObject({
      outcome: 'allow',
      decidedBy: 'human',
      requestId: pending.requestId,
      actions: [
        { action: 'git_push', tier: 'ask', rule: 'default:git_push' },
        { action: 'run_tests', tier: 'auto' },
      ],
    });
  });

  it('gate: a Read of the admin token is never allowed, an internal tool gets no opinion', async () => {
    const answer = await agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Read',
      input: { file_path: '~/.local/share/gatehouse/admin.token' },
      toolUseId: 'tu-2',
      cwd: project,
      timeoutMs: 50,
    });
    expect(answer).toMatchObject({
      outcome: 'pending',
      actions: [
        { action: 'read_file', tier: 'ask', rule: 'protected:gatehouse', risk: 'critical' },
      ],
    });
    // Approved once after its wait ended, the same call goes through exactly once more.
    await admin.call('decide', { requestId: answer.requestId!, decision: 'approve' });
    const read = {
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Read',
      input: { file_path: '~/.local/share/gatehouse/admin.token' },
      cwd: project,
      timeoutMs: 50,
    };
    expect(await agent.gate({ ...read, toolUseId: 'tu-3' })).toMatchObject({
      outcome: 'allow',
      decidedBy: 'grant',
    });
    expect(await agent.gate({ ...read, toolUseId: 'tu-4' })).toMatchObject({
      outcome: 'pending',
    });
    const opaque = await agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Bash',
      input: { command: 'cat $(ls ~/.local/share/*/admin.token)' },
      cwd: project,
      wait: false,
    });
    expect(opaque.outcome).toBe('pending');
    expect(opaque.actions.some((a) => a.rule === 'protected:gatehouse')).toBe(true);
    expect(
      await agent.gate({
        client: 'claude-code',
        event: 'PreToolUse',
        tool: 'TodoWrite',
        input: {},
      }),
    ).toEqual({ outcome: 'none', reason: expect.any(String), actions: [] });
    await expect(
      agent.gate({ client: 'nobody', event: 'PreToolUse', tool: 'Read', input: {} }),
    ).rejects.toBeInstanceOf(RpcError);
  });
});
