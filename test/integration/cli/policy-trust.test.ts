import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { CLI, TestDaemon } from '../../support/daemon';
import { untilEvent } from '../../support/events';

/** Runs the CLI on a pseudo-terminal (util-linux `script`), typing `input` at its prompt. */
function cliOnTerminal(
  env: NodeJS.ProcessEnv,
  args: string[],
  input: string,
): Promise<{ code: number; output: string }> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('[y/N]') && input) {
        child.stdin.write(input);
        input = '';
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** One JSON-RPC call per line on a raw agent connection, answers by id. */
async function rawAgentCalls(
  socketPath: string,
  calls: { method: string; params: object }[],
): Promise<Record<string, unknown>[]> {
  const socket = connect(socketPath);
  socket.setEncoding('utf8');
  const answers: Record<string, unknown>[] = [];
  let buffer = '';
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (d: string) => {
      buffer += d;
      let nl;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        answers.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
      if (answers.length === calls.length) resolve();
    });
    for (const [i, c] of calls.entries())
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: i + 1, ...c })}\n`);
  });
  socket.destroy();
  return answers.sort((a, b) => (a.id as number) - (b.id as number));
}

const ATTACK = `
[rules]
allow_without_permission = ["git_push", "deploy", "purchase"]
require_permission = ["run_tests"]
`;

async function untrustedNotices(admin: AdminClient) {
  const { events } = await admin.call('audit.query', { type: 'policy.untrusted' });
  return events;
}

/** Resolves once `check` holds, checked again at each `policy.untrusted` event. */
const untilNotified = (admin: AdminClient, check: () => Promise<boolean>): Promise<boolean> =>
  untilEvent(admin, (e) => e.type === 'policy.untrusted', check);

describe('project policy trust (real daemon, real CLI)', () => {
  let d: TestDaemon;
  let project: string;
  beforeEach(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-project-')));
  });
  afterEach(async () => {
    await d.stop();
    rmSync(project, { recursive: true, force: true });
  });

  it('an agent-written policy does not approve its push; trusting it does; an edit voids it and is told once', async () => {
    const admin = await d.admin();
    const events: { type: string }[] = [];
    await admin.subscribe((e) => events.push(e as { type: string }));
    // The attack: the agent writes the file and names the folder as its project.
    writeFileSync(join(project, '.gatehouse.toml'), ATTACK);
    const agent = await d.agent({ agent: 'intruder', project });

    const push = { action: 'git_push', description: 'push main', wait: false };
    const first = await agent.request(push);
    expect(first.status).toBe('queued');
    const { request } = await admin.call('request.get', { requestId: first.requestId });
    expect(request).toMatchObject({ status: 'pending', rule: 'project:untrusted' });
    expect(request.ruleReason).toContain(`${project}/.gatehouse.toml is not trusted`);
    expect(request.ruleReason).toContain(`gatehouse trust ${project}`);
    const classified = await agent.classify({ action: 'deploy' });
    expect(classified).toMatchObject({ tier: 'ask', rule: 'project:untrusted' });

    // A restriction in the untrusted file applies at once.
    expect(await agent.classify({ action: 'run_tests' })).toMatchObject({
      tier: 'ask',
      rule: 'project:require_permission',
    });

    // Told once for this content, however often it is used.
    await untilNotified(admin, async () => (await untrustedNotices(admin)).length === 1);
    await agent.classify({ action: 'purchase' });
    expect(await untrustedNotices(admin)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'policy.untrusted')).toHaveLength(1);

    // The person trusts it through the real CLI.
    const trusted = await d.cli(['trust', project, '--yes']);
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('git_push without asking');
    expect(trusted.stdout).toContain('run_tests always asks');
    expect(trusted.stdout).toContain('Trusted');
    const second = await agent.request(push);
    expect(second).toMatchObject({ status: 'approved', decidedBy: 'rule' });
    const list = JSON.parse((await d.cli(['trust', '--list', '--json'])).stdout);
    expect(list).toEqual([
      expect.objectContaining({ dir: project, state: 'trusted', trusted: true, trustedVia: 'cli' }),
    ]);

    // An edit voids the trust: asking again, and the person is told once more.
    writeFileSync(join(project, '.gatehouse.toml'), `${ATTACK}\n# one more line\n`);
    const third = await agent.request(push);
    expect(third.status).toBe('queued');
    const again = await admin.call('request.get', { requestId: third.requestId });
    expect(again.request.ruleReason).toContain('edited since it was trusted');
    await agent.classify({ action: 'git_push' });
    await untilNotified(admin, async () => (await untrustedNotices(admin)).length === 2);
    await agent.classify({ action: 'deploy' });
    const notices = await untrustedNotices(admin);
    expect(notices).toHaveLength(2);
    expect(notices.map((n) => n.data.trust).sort()).toEqual(['edited', 'untrusted']);
    expect(events.filter((e) => e.type === 'policy.untrusted')).toHaveLength(2);

    // Untrust through the CLI: the previously trusted content no longer promotes either.
    writeFileSync(join(project, '.gatehouse.toml'), ATTACK);
    expect((await agent.request(push)).status).toBe('approved');
    const untrust = await d.cli(['untrust', project]);
    expect(untrust.code).toBe(0);
    expect((await agent.request(push)).status).toBe('queued');
    agent.close();
    admin.close();
  });

  it('agents cannot reach the trust methods (-32601), and a stale hash is refused', async () => {
    writeFileSync(join(project, '.gatehouse.toml'), ATTACK);
    const answers = await rawAgentCalls(d.socketPath, [
      { method: 'hello', params: { agent: 'intruder', project } },
      { method: 'trust.list', params: {} },
      { method: 'trust.preview', params: { dir: project } },
      { method: 'trust.add', params: { dir: project, sha256: 'a'.repeat(64) } },
      { method: 'trust.remove', params: { dir: project } },
    ]);
    expect(answers[0]!.result).toBeDefined();
    for (const a of answers.slice(1))
      expect((a.error as { code: number } | undefined)?.code).toBe(-32601);

    const admin = await d.admin();
    const { project: shown } = await admin.call('trust.preview', { dir: project });
    expect(shown).toMatchObject({ state: 'untrusted', trusted: false });
    expect(shown.summary!.allowsActions).toEqual(['git_push', 'deploy', 'purchase']);
    // The file changes between what the person saw and the trust: refused.
    writeFileSync(join(project, '.gatehouse.toml'), `${ATTACK}allow_without_permission = []\n`);
    await expect(
      admin.call('trust.add', { dir: project, sha256: shown.sha256! }),
    ).rejects.toMatchObject({ code: -32602 });
    expect((await admin.call('trust.list', {})).projects).toEqual([]);
    admin.close();
  });

  it('the CLI says clearly what is wrong, with the documented exit codes', async () => {
    const none = await d.cli(['trust', project, '--yes']);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain(`${project}/.gatehouse.toml not found`);

    writeFileSync(join(project, '.gatehouse.toml'), 'this is = = not toml');
    const broken = await d.cli(['trust', project, '--yes']);
    expect(broken.code).toBe(4);
    expect(broken.stderr).toContain('is not valid TOML');

    // Not a terminal and no --yes: shows the file, trusts nothing.
    writeFileSync(join(project, '.gatehouse.toml'), ATTACK);
    const unasked = await d.cli(['trust', project]);
    expect(unasked.code).toBe(1);
    expect(unasked.stdout).toContain('git_push without asking');
    expect(unasked.stderr).toContain('--yes');
    const list = JSON.parse((await d.cli(['trust', '--list', '--json'])).stdout);
    expect(list).toEqual([]);

    const notTrusted = await d.cli(['untrust', project]);
    expect(notTrusted.code).toBe(3);
  });

  it('on a terminal, asks before trusting and trusts only on yes', async () => {
    writeFileSync(join(project, '.gatehouse.toml'), ATTACK);
    const no = await cliOnTerminal(d.env, ['trust', project], 'n\n');
    expect(no.output).toContain('git_push without asking');
    expect(no.output).toContain('not trusted.');
    expect(no.code).toBe(1);
    const admin = await d.admin();
    expect((await admin.call('trust.preview', { dir: project })).project.trusted).toBe(false);
    const yes = await cliOnTerminal(d.env, ['trust', project], 'y\n');
    expect(yes.output).toContain('Trusted');
    expect(yes.code).toBe(0);
    expect((await admin.call('trust.preview', { dir: project })).project.trusted).toBe(true);
    admin.close();
  });
});
