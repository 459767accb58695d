import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { CLI, runCli, TestDaemon, waitForPending } from '../../support/daemon';

const CLIENT_NAME = 'mcp-test-agent';

/** The SDK's own client, spawning `gatehouse mcp` over stdio with the given environment. */
async function connectMcp(
  env: NodeJS.ProcessEnv,
  project = '/home/dev/mcp-project',
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--project', project],
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: CLIENT_NAME, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult & { structuredContent?: Record<string, unknown> }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & {
    structuredContent?: Record<string, unknown>;
  };
}

const text = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

/** Polls `probe` until it returns something (events of the daemon, not a fixed sleep). */
async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('gatehouse mcp, driven by the MCP SDK client over stdio (real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let mcp: Client;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    mcp = await connectMcp(d.env);
  });
  afterAll(async () => {
    await mcp?.close();
    admin?.close();
    await d?.stop();
  });

  const session = async () => {
    const { sessions } = await admin.call('sessions.list', { agent: CLIENT_NAME });
    expect(sessions).toHaveLength(1);
    return sessions[0]!;
  };

  it('lists the tools with input schemas an LLM can follow', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'check_action',
      'check_budget',
      'end_session',
      'get_decision',
      'log_action',
      'permission_prompt',
      'report_usage',
      'request_permission',
    ]);
    const request = tools.find((t) => t.name === 'request_permission')!;
    expect(request.description).toMatch(/approved: true/);
    expect(request.inputSchema.required).toEqual(['action', 'description']);
    expect(Object.keys(request.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'action',
        'description',
        'rationale',
        'urgency',
        'wait',
        'wait_seconds',
      ]),
    );
    // Fields and limits come from the protocol's own schemas (shared/protocol/agent-methods.ts).
    const props = request.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.action).toMatchObject({ type: 'string', minLength: 1, maxLength: 128 });
    expect(props.description).toMatchObject({ maxLength: 8192 });
    expect(props.urgency).toMatchObject({ enum: ['low', 'normal', 'high'] });
    const prompt = tools.find((t) => t.name === 'permission_prompt')!;
    expect(prompt.inputSchema.required).toEqual(['tool_name', 'input']);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      // Claude Code's permission prompt reads one text block; every other tool declares its output.
      if (t.name === 'permission_prompt') expect(t.outputSchema).toBeUndefined();
      else expect(t.outputSchema).toBeDefined();
    }
  });

  it('check_action classifies without side effects', async () => {
    const read = await call(mcp, 'check_action', { action: 'read_file', paths: ['README.md'] });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({
      action: 'read_file',
      tier: 'auto',
      needs_permission: false,
      rule: 'default:read_file',
    });
    expect(text(read)).toMatch(/auto-allowed/);
    const push = await call(mcp, 'check_action', { action: 'git_push', target: 'origin main' });
    expect(push.structuredContent).toMatchObject({ tier: 'ask', needs_permission: true });
    expect(text(push)).toMatch(/call request_permission/);
    // One MCP session is one Gatehouse session, named after the MCP client, in the project given.
    expect(await session()).toMatchObject({
      agent: CLIENT_NAME,
      project: '/home/dev/mcp-project',
      status: 'active',
    });
  });

  it('log_action and report_usage land in the session', async () => {
    const logged = await call(mcp, 'log_action', {
      type: 'run_tests',
      description: 'Ran the unit tests: 12 passed',
      details: { passed: 12 },
    });
    expect(logged.structuredContent).toEqual({ ok: true });
    const usage = await call(mcp, 'report_usage', {
      model: 'claude-sonnet-4-5',
      input_tokens: 1000,
      output_tokens: 200,
      cost_usd: 0.05,
      phase: 'coding',
    });
    expect(usage.isError).toBeFalsy();
    expect(usage.structuredContent).toMatchObject({ cost_usd: 0.05, spent_session_usd: 0.05 });
    expect(text(usage)).toMatch(/^Recorded \$0\.0500/);
    const { transcript } = await admin.call('session.get', {
      sessionId: (await session()).sessionId,
    });
    expect(transcript.map((t) => t.text)).toEqual(
      expect.arrayContaining([expect.stringContaining('Ran the unit tests: 12 passed')]),
    );
  });

  it('check_budget answers allowed with the mode', async () => {
    const r = await call(mcp, 'check_budget', {
      phase: 'coding',
      iteration: 1,
      progress: true,
      estimated_cost_usd: 0.01,
    });
    expect(r.structuredContent).toMatchObject({ allowed: true, mode: 'normal' });
    expect(text(r)).toMatch(/^ALLOWED/);
  });

  it('request_permission waits for the human: approve and deny', async () => {
    const pending = call(mcp, 'request_permission', {
      action: 'git_push',
      description: 'Push fix/auth to origin',
      rationale: 'tests pass',
      urgency: 'high',
      target: 'origin fix/auth',
    });
    const req = await waitForPending(admin, 'git_push');
    expect(req).toMatchObject({
      agent: CLIENT_NAME,
      description: 'Push fix/auth to origin',
      rationale: 'tests pass',
      urgency: 'high',
      target: 'origin fix/auth',
    });
    await admin.call('decide', { requestId: req.requestId, decision: 'approve', message: 'go' });
    const approved = await pending;
    expect(approved.structuredContent).toMatchObject({
      approved: true,
      status: 'approved',
      request_id: req.requestId,
      decided_by: 'human',
      message: 'go',
    });
    expect(text(approved)).toMatch(/^APPROVED/);

    const asking = call(mcp, 'request_permission', {
      action: 'send_email',
      description: 'Email the customer',
      target: 'c@example.com',
    });
    const mail = await waitForPending(admin, 'send_email');
    await admin.call('decide', {
      requestId: mail.requestId,
      decision: 'deny',
      reason: 'not on a Sunday',
    });
    const denied = await asking;
    expect(denied.structuredContent).toMatchObject({
      approved: false,
      status: 'denied',
      reason: 'not on a Sunday',
    });
    expect(text(denied)).toMatch(/^DENIED: do not send_email/);
  });

  it('request_permission without waiting queues, and get_decision picks up the decision', async () => {
    const queued = await call(mcp, 'request_permission', {
      action: 'deploy',
      description: 'Deploy to staging',
      target: 'staging',
      wait: false,
    });
    expect(queued.structuredContent).toMatchObject({ approved: false, status: 'queued' });
    expect(text(queued)).toMatch(/Do NOT do it yet/);
    const id = queued.structuredContent!.request_id as string;
    const still = await call(mcp, 'get_decision', { request_id: id });
    expect(still.structuredContent).toMatchObject({ approved: false, status: 'pending' });
    await admin.call('decide', { requestId: id, decision: 'approve' });
    const later = await call(mcp, 'get_decision', { request_id: id, wait_seconds: 2 });
    expect(later.structuredContent).toMatchObject({
      approved: true,
      status: 'approved',
      request_id: id,
    });
  });

  it('request_permission waits at most its wait, then answers queued; asking again is the same request, and get_decision picks up the late decision', async () => {
    const first = await call(mcp, 'request_permission', {
      action: 'purchase',
      description: 'Buy a domain',
      target: 'example.dev',
      wait_seconds: 1,
    });
    expect(first.structuredContent).toMatchObject({ approved: false, status: 'queued' });
    expect(text(first)).toMatch(/^NO DECISION YET.*get_decision/);
    const id = first.structuredContent!.request_id as string;
    const again = await call(mcp, 'request_permission', {
      action: 'purchase',
      description: 'Buy a domain',
      target: 'example.dev',
      wait_seconds: 1,
    });
    expect(again.structuredContent).toMatchObject({ status: 'queued', request_id: id });
    // Still open in the queue (not timed out): the person sees one request and decides it.
    const { requests } = await admin.call('requests.query', { action: 'purchase' });
    expect(requests.map((r) => [r.requestId, r.status])).toEqual([[id, 'pending']]);
    const waiting = call(mcp, 'get_decision', { request_id: id, wait_seconds: 30 });
    await admin.call('decide', { requestId: id, decision: 'approve' });
    expect((await waiting).structuredContent).toMatchObject({
      approved: true,
      status: 'approved',
      request_id: id,
      decided_by: 'human',
    });
  });

  it('a cancelled request_permission call withdraws its request: the daemon shows it cancelled', async () => {
    const abort = new AbortController();
    const asking = mcp
      .callTool(
        {
          name: 'request_permission',
          arguments: { action: 'deploy', description: 'Deploy to prod', target: 'prod' },
        },
        undefined,
        { signal: abort.signal },
      )
      .catch((error: unknown) => error);
    const pending = await waitForPending(admin, 'deploy');
    expect(pending.target).toBe('prod');
    abort.abort('the user pressed Esc');
    expect(await asking).toBeInstanceOf(Error);
    const status = await waitFor(async () => {
      const { requests } = await admin.call('requests.query', { action: 'deploy' });
      const r = requests.find((x) => x.requestId === pending.requestId);
      return r?.status === 'cancelled' ? r : undefined;
    });
    expect(status).toMatchObject({ status: 'cancelled', decidedBy: 'system' });
  });

  it('reconnects after Gatehouse restarts and resumes the same session', async () => {
    const before = await session();
    await d.kill9();
    const down = await call(mcp, 'check_action', { action: 'read_file' });
    expect(down.isError).toBe(true);
    expect(text(down)).toMatch(/not reachable/);
    await d.launch(['--no-dashboard']);
    admin.close();
    admin = await d.admin();
    const up = await call(mcp, 'log_action', {
      type: 'note',
      description: 'back after the restart',
    });
    expect(up.isError).toBeFalsy();
    const after = await session();
    expect(after.sessionId).toBe(before.sessionId);
  });

  it('end_session returns the summary and closes the session', async () => {
    const r = await call(mcp, 'end_session', { status: 'completed' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      session_id: (await session()).sessionId,
      cost_usd: 0.05,
    });
    expect(text(r)).toMatch(/completed/);
    expect((await session()).status).toBe('completed');
  });
});

describe('gatehouse mcp when Gatehouse is not running', () => {
  it('starts, and every tool call is an error result; permission is never granted', async () => {
    const env = {
      ...process.env,
      GATEHOUSE_SOCKET: '/nonexistent/gatehouse/agent.sock',
      GATEHOUSE_HOME: '/nonexistent/gatehouse',
    };
    const mcp = await connectMcp(env);
    try {
      const r = await call(mcp, 'request_permission', { action: 'git_push', description: 'Push' });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({
        approved: false,
        status: 'denied',
        decided_by: 'system',
      });
      expect(text(r)).toMatch(/^NOT APPROVED: Gatehouse is not reachable/);
      // Each error result carries structured content of the tool's declared shape (the SDK
      // client validates it against the output schema) that says no, with the error.
      for (const [name, args, no] of [
        ['check_action', { action: 'git_push' }, { needs_permission: true, tier: 'ask' }],
        ['check_budget', {}, { allowed: false }],
        ['log_action', { type: 'x', description: 'y' }, { ok: false }],
        ['report_usage', { model: 'm', input_tokens: 1, output_tokens: 1 }, { recorded: false }],
        ['end_session', {}, { ended: false }],
        ['get_decision', { request_id: 'req-1' }, { approved: false, status: 'denied' }],
      ] as const) {
        const res = await call(mcp, name, args);
        expect(res.isError, name).toBe(true);
        expect(res.structuredContent, name).toMatchObject({
          ...no,
          error: expect.stringMatching(/not reachable/),
        });
      }
      // Claude Code's permission prompt is denied, never allowed, with how to start Gatehouse.
      const prompt = await call(mcp, 'permission_prompt', {
        tool_name: 'Bash',
        input: { command: 'git push origin main' },
        tool_use_id: 'toolu_down',
      });
      expect(JSON.parse(text(prompt))).toMatchObject({
        behavior: 'deny',
        message: expect.stringMatching(/not reachable.*Start Gatehouse/),
      });
    } finally {
      await mcp.close();
    }
  });
});

describe('gatehouse mcp inside an agent session, with a short wait cap (real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let mcp: Client;
  const project = '/home/dev/cc-project';
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    mcp = await connectMcp(
      { ...d.env, CLAUDE_CODE_SESSION_ID: 'cc-session-1', GATEHOUSE_MCP_MAX_WAIT_MS: '1500' },
      project,
    );
  });
  afterAll(async () => {
    await mcp?.close();
    admin?.close();
    await d?.stop();
  });

  it('a hook call and an MCP call of one Claude Code session land in one Gatehouse session', async () => {
    const hook = await runCli(
      d.env,
      ['hook', 'claude-code'],
      JSON.stringify({
        session_id: 'cc-session-1',
        hook_event_name: 'PreToolUse',
        cwd: project,
        tool_name: 'Bash',
        tool_input: { command: 'git status' },
        tool_use_id: 'toolu_hook_1',
      }),
    );
    expect(hook.stdout).toContain('"allow"');
    const logged = await call(mcp, 'log_action', { type: 'note', description: 'from MCP' });
    expect(logged.isError).toBeFalsy();
    const { sessions } = await admin.call('sessions.list', {});
    expect(sessions.map((s) => s.agent)).toEqual(['claude-code']);
    const { transcript } = await admin.call('session.get', { sessionId: sessions[0]!.sessionId });
    const texts = transcript.map((t) => t.text).join('\n');
    expect(texts).toContain('from MCP');
    expect(texts).toMatch(/git status/);
  });

  it('request_permission waits at most the cap, then answers queued with get_decision', async () => {
    const started = Date.now();
    const r = await call(mcp, 'request_permission', {
      action: 'send_email',
      description: 'Email the team',
      target: 'team@example.com',
      wait_seconds: 600,
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.structuredContent).toMatchObject({ approved: false, status: 'queued' });
    expect(text(r)).toMatch(/within 1\.5 s.*get_decision/);
    const { requests } = await admin.call('pending.list', {});
    expect(requests.map((x) => x.status)).toEqual(['pending']);
    await admin.call('decide', { requestId: requests[0]!.requestId, decision: 'deny' });
  });

  it("permission_prompt answers Claude Code's prompt: a push waits for a person, allowed with its input, or denied with the reason", async () => {
    const input = { command: 'git push origin main', description: 'Push' };
    const asking = call(mcp, 'permission_prompt', {
      tool_name: 'Bash',
      input,
      tool_use_id: 'toolu_prompt_1',
    });
    const pending = await waitForPending(admin, 'git_push');
    expect(pending).toMatchObject({ agent: 'claude-code', target: 'origin main' });
    await admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    const allowed = await asking;
    // A person approved it: it runs outside Claude Code's sandbox, so the push can connect.
    expect(JSON.parse(text(allowed))).toEqual({
      behavior: 'allow',
      updatedInput: { ...input, dangerouslyDisableSandbox: true },
    });
    // One text block and nothing else: Claude Code refuses structured content here.
    expect(allowed.content).toHaveLength(1);
    expect(allowed.structuredContent).toBeUndefined();

    const denying = call(mcp, 'permission_prompt', {
      tool_name: 'Bash',
      input,
      tool_use_id: 'toolu_prompt_2',
    });
    const second = await waitForPending(admin, 'git_push');
    await admin.call('decide', {
      requestId: second.requestId,
      decision: 'deny',
      reason: 'not now',
    });
    expect(JSON.parse(text(await denying))).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('not now'),
    });
  });

  it('a permission_prompt nobody decides within the cap is denied; a cancelled one is withdrawn', async () => {
    const late = await call(mcp, 'permission_prompt', {
      tool_name: 'Bash',
      input: { command: 'npm publish' },
      tool_use_id: 'toolu_prompt_3',
    });
    expect(JSON.parse(text(late))).toMatchObject({
      behavior: 'deny',
      message: expect.stringMatching(/in time, so it is denied/),
    });
    const abort = new AbortController();
    const asking = mcp
      .callTool(
        {
          name: 'permission_prompt',
          arguments: {
            tool_name: 'Bash',
            input: { command: 'git push --force origin main' },
            tool_use_id: 'toolu_prompt_4',
          },
        },
        undefined,
        { signal: abort.signal },
      )
      .catch((error: unknown) => error);
    const pending = await waitFor(async () => {
      const { requests } = await admin.call('pending.list', {});
      return requests.find((r) => r.command === 'git push --force origin main');
    });
    abort.abort('interrupted');
    expect(await asking).toBeInstanceOf(Error);
    const withdrawn = await waitFor(async () => {
      const { requests } = await admin.call('requests.query', { action: pending.action });
      const r = requests.find((x) => x.requestId === pending.requestId);
      return r?.status === 'cancelled' ? r : undefined;
    });
    expect(withdrawn.status).toBe('cancelled');
  });
});

describe("permission_prompt judges the call in Claude Code's environment (real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let mcp: Client;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-mcp-path-')));
  const project = join(dir, 'project');
  const tools = join(dir, 'tools');
  const marker = join(dir, 'pwned');
  beforeAll(async () => {
    mkdirSync(project);
    mkdirSync(tools);
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    // Claude Code starts the server: its PATH, with a folder of the person's programs first.
    mcp = await connectMcp({ ...d.env, PATH: `${tools}:${process.env.PATH ?? ''}` }, project);
    await admin.call('rules.add', { action: 'write_file', tier: 'auto' });
  });
  afterAll(async () => {
    await mcp?.close();
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a program written into a folder on its PATH asks, critical, though writes are allowed by rule; denied, the next git status runs only git', async () => {
    const command = `printf '#!/bin/sh\\ntouch ${marker}\\nexec /usr/bin/git "$@"\\n' > ${tools}/git && chmod +x ${tools}/git`;
    const asking = call(mcp, 'permission_prompt', {
      tool_name: 'Bash',
      input: { command },
      tool_use_id: 'toolu_path_1',
    });
    const first = await Promise.race([
      asking.then((r) => ({ answered: JSON.parse(text(r)) as { behavior: string } })),
      waitForPending(admin, (r) => r.command === command).then((p) => ({ pending: p })),
    ]);
    if ('answered' in first) {
      // Allowed: Claude Code runs it.
      if (first.answered.behavior === 'allow') spawnSync('bash', ['-c', command]);
    } else {
      expect(first.pending).toMatchObject({ rule: 'protected:startup_config', risk: 'critical' });
      await admin.call('decide', { requestId: first.pending.requestId, decision: 'deny' });
      expect(JSON.parse(text(await asking))).toMatchObject({ behavior: 'deny' });
    }
    spawnSync('git', ['status'], {
      cwd: project,
      env: { ...process.env, PATH: `${tools}:${process.env.PATH ?? ''}` },
      stdio: 'ignore',
    });
    expect(existsSync(marker), `${command} was allowed and the next git status ran it`).toBe(false);
    expect('pending' in first, 'the write asked').toBe(true);
  });
});
