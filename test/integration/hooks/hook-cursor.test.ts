import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { runCli, TestDaemon, waitForPending, type CliResult } from '../../support/daemon';

/**
 * The Cursor adapter. Cursor's CLI cannot run here, so the hook is driven with payloads
 * recorded from Cursor's documentation (test/fixtures/cursor-hook-payloads.json, each with
 * its source) through the real hook process (`gatehouse hook cursor`) against a real daemon.
 */
type Fixture = { source: string; payload: Record<string, unknown> };
const FIXTURES = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '..', '..', 'fixtures', 'cursor-hook-payloads.json'),
    'utf8',
  ),
) as Record<
  'beforeShellExecution' | 'beforeMCPExecution' | 'beforeReadFile' | 'preToolUse',
  Fixture
>;

interface CursorAnswer {
  permission?: string;
  user_message?: string;
  agent_message?: string;
}

describe('gatehouse hook cursor, on payloads recorded from Cursor’s documentation', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let dir: string;
  let project: string;

  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-cursor-'));
    project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'README.md'), '# project\n');
  });

  afterAll(async () => {
    admin?.close();
    await d?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The recorded payload, moved into the temporary project, with `change` applied. */
  function payload(
    event: keyof typeof FIXTURES,
    change: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const text = JSON.stringify(FIXTURES[event].payload).replaceAll('/home/dev/project', project);
    return { ...(JSON.parse(text) as Record<string, unknown>), ...change };
  }

  const hook = (p: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runCli({ ...d.env, ...env }, ['hook', 'cursor'], JSON.stringify(p));

  const answer = (r: CliResult): CursorAnswer => {
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as CursorAnswer;
  };

  it('beforeShellExecution: the recorded `npm install` waits for a person and is allowed when approved', async () => {
    const running = hook(payload('beforeShellExecution'));
    const pending = await waitForPending(admin, 'install_package');
    expect(pending.agent).toBe('cursor');
    expect(pending.description).toContain('npm install express');
    await admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    const a = answer(await running);
    expect(a.permission).toBe('allow');
    expect(a.agent_message).toMatch(/approved/);
  });

  it('beforeShellExecution: a denied git push is denied with the person’s reason for the user and the agent', async () => {
    const running = hook(payload('beforeShellExecution', { command: 'git push origin main' }));
    const pending = await waitForPending(admin, 'git_push');
    await admin.call('decide', {
      requestId: pending.requestId,
      decision: 'deny',
      reason: 'not before the release',
    });
    const a = answer(await running);
    expect(a.permission).toBe('deny');
    expect(a.user_message).toContain('not before the release');
    expect(a.agent_message).toContain('not before the release');
  });

  it('beforeReadFile: a project file is allowed at once, answered with the permission alone, and its content never reaches Gatehouse', async () => {
    const a = answer(await hook(payload('beforeReadFile')));
    expect(a).toEqual({ permission: 'allow' });
    const { sessions } = await admin.call('sessions.list', { agent: 'cursor' });
    const session = sessions.find((s) => s.sessionKey === 'conv-123');
    expect(session?.project).toBe(project);
    const { transcript } = await admin.call('session.get', { sessionId: session!.sessionId });
    expect(transcript.some((t) => t.kind === 'log' && t.text.includes('README.md'))).toBe(true);
    expect(JSON.stringify(transcript)).not.toContain('RECORDED-CONTENT-MARKER');
  });

  it("beforeReadFile: Gatehouse's own files ask a person, critical; denied, Cursor is told deny", async () => {
    const running = hook(payload('beforeReadFile', { file_path: join(d.home, 'admin.token') }));
    const pending = await waitForPending(admin, 'read_file');
    expect(pending.risk).toBe('critical');
    await admin.call('decide', { requestId: pending.requestId, decision: 'deny' });
    expect(answer(await running)).toEqual({ permission: 'deny' });
  });

  it('beforeMCPExecution: the recorded MCP call (arguments as a JSON string) is an MCP action of its server', async () => {
    const running = hook(payload('beforeMCPExecution'));
    const pending = await waitForPending(admin, 'mcp:mcp-server:database_query');
    expect(pending.description).toContain('SELECT * FROM users');
    await admin.call('decide', { requestId: pending.requestId, decision: 'deny', reason: 'no' });
    expect(answer(await running).permission).toBe('deny');
  });

  it('preToolUse: the recorded Delete asks; Shell, Read and MCP calls are left to their own events', async () => {
    const running = hook(payload('preToolUse'));
    const pending = await waitForPending(admin, 'delete_files');
    expect(pending.paths).toEqual([join(project, 'old.txt')]);
    await admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    expect(answer(await running).permission).toBe('allow');
    for (const tool_name of ['Shell', 'Read', 'MCP:github:create_issue']) {
      const r = await hook(
        payload('preToolUse', { tool_name, tool_input: { command: 'git push' } }),
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
    }
  });

  it('a wait that runs out hands the call to Cursor’s own prompt (ask) and withdraws the request', async () => {
    const r = await hook(payload('beforeShellExecution', { command: 'git push origin main' }), {
      GATEHOUSE_HOOK_WAIT_MS: '300',
    });
    const a = answer(r);
    expect(a.permission).toBe('ask');
    expect(a.user_message).toMatch(/withdrawn/);
    const { requests } = await admin.call('pending.list', {});
    expect(requests).toEqual([]);
  });

  it('a paused agent is denied with Gatehouse’s stop reason (Cursor has no stop answer)', async () => {
    await admin.call('pause', { agent: 'cursor', reason: 'lunch break' });
    try {
      const a = answer(await hook(payload('beforeShellExecution')));
      expect(a.permission).toBe('deny');
      expect(a.user_message).toMatch(/Gatehouse says stop/);
      const { requests } = await admin.call('pending.list', {});
      expect(requests).toEqual([]);
    } finally {
      await admin.call('resume', { agent: 'cursor' });
    }
  });

  it('with Gatehouse unreachable, what would ask is denied with how to start Gatehouse; a project read still passes', async () => {
    const down = { GATEHOUSE_SOCKET: join(dir, 'no-such', 'agent.sock') };
    mkdirSync(join(dir, 'no-such'), { mode: 0o700 });
    const a = answer(await hook(payload('beforeShellExecution', { command: 'git push' }), down));
    expect(a.permission).toBe('deny');
    expect(a.user_message).toMatch(/cannot reach Gatehouse/);
    expect(a.user_message).toMatch(/Start Gatehouse/);
    expect(answer(await hook(payload('beforeReadFile'), down))).toEqual({ permission: 'allow' });
  });

  it('a payload it cannot read is denied, never a crash', async () => {
    const r = await runCli(d.env, ['hook', 'cursor'], '{"hook_event_name":"beforeShellExecution"');
    expect(answer(r).permission).toBe('deny');
    const noSession = await hook({ hook_event_name: 'beforeShellExecution', command: 'ls' });
    expect(answer(noSession).permission).toBe('deny');
  });

  it('--install merges its entries first into hooks.json, keeping the others; --uninstall removes exactly them', async () => {
    const home = join(dir, 'home');
    const file = join(home, '.cursor', 'hooks.json');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    const existing = {
      version: 1,
      hooks: {
        beforeShellExecution: [{ command: './hooks/audit.sh' }],
        afterFileEdit: [{ command: 'npx prettier --write' }],
      },
    };
    const original = `${JSON.stringify(existing, null, 2)}\n`;
    writeFileSync(file, original);
    const env = { ...d.env, HOME: home };
    const r = await runCli(env, ['hook', 'cursor', '--install']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Installed Gatehouse hooks/);
    expect(r.stdout).toMatch(/waits up to 50 s for a person/);
    expect(r.stdout).toMatch(/With Gatehouse down/);
    const installed = JSON.parse(readFileSync(file, 'utf8')) as {
      hooks: Record<string, { command: string; failClosed?: boolean }[]>;
    };
    expect(Object.keys(installed.hooks).sort()).toEqual([
      'afterFileEdit',
      'beforeMCPExecution',
      'beforeReadFile',
      'beforeShellExecution',
      'preToolUse',
    ]);
    const ours = installed.hooks.beforeShellExecution![0]!;
    expect(ours.failClosed).toBe(true);
    // The daemon's location travels with the command: it is not the default here.
    expect(ours.command).toContain(`GATEHOUSE_SOCKET=${d.socketPath}`);
    expect(ours.command).toMatch(/hook cursor$/);
    expect(installed.hooks.beforeShellExecution![1]).toEqual({ command: './hooks/audit.sh' });
    const again = await runCli(env, ['hook', 'cursor', '--install']);
    expect(again.stdout).toMatch(/already installed/);
    const removed = await runCli(env, ['hook', 'cursor', '--uninstall']);
    expect(removed.stdout).toMatch(/Removed 4 Gatehouse hook entries/);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('`gatehouse hook --help` names every agent and what install prints; an agent without an installer is refused', async () => {
    const help = await runCli(d.env, ['hook', '--help']);
    expect(help.code).toBe(0);
    for (const word of ['claude-code', 'codex', 'gemini', 'copilot', 'opencode', 'cursor'])
      expect(help.stdout).toContain(word);
    expect(help.stdout).toMatch(/GATEHOUSE_HOME \/ GATEHOUSE_SOCKET/);
    expect(help.stdout).toMatch(/--project <dir>/);
    const unknown = await runCli(d.env, ['hook', 'vim', '--install']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/no hook installer for "vim"/);
  });
});
