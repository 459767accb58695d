import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { CLI, TestDaemon, waitForPending } from '../support/daemon';

const CLIENT_NAME = 'mcp-test-agent';

/** The SDK's own client, spawning `gatehouse mcp` over stdio with the given environment. */
async function connectMcp(env: NodeJS.ProcessEnv): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--project', '/home/dev/mcp-project'],
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
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.outputSchema).toBeDefined();
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

  it('request_permission times out into "no decision yet"; asking again is the same request until a late approval grants it', async () => {
    const first = await call(mcp, 'request_permission', {
      action: 'purchase',
      description: 'Buy a domain',
      target: 'example.dev',
      wait_seconds: 1,
    });
    expect(first.structuredContent).toMatchObject({ approved: false, status: 'timed_out' });
    expect(text(first)).toMatch(/^NO DECISION YET/);
    const again = await call(mcp, 'request_permission', {
      action: 'purchase',
      description: 'Buy a domain',
      target: 'example.dev',
      wait_seconds: 1,
    });
    expect(again.structuredContent).toMatchObject({
      status: 'timed_out',
      request_id: first.structuredContent!.request_id,
    });
    const { requests } = await admin.call('requests.query', { action: 'purchase' });
    expect(requests.map((r) => r.status)).toEqual(['timed_out']);
    // A late approval becomes a one-time grant that the next identical request consumes.
    await admin.call('decide', { requestId: requests[0]!.requestId, decision: 'approve' });
    const granted = await call(mcp, 'request_permission', {
      action: 'purchase',
      description: 'Buy a domain',
      target: 'example.dev',
      wait_seconds: 1,
    });
    expect(granted.structuredContent).toMatchObject({ approved: true, decided_by: 'grant' });
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
      for (const [name, args] of [
        ['check_action', { action: 'git_push' }],
        ['check_budget', {}],
        ['log_action', { type: 'x', description: 'y' }],
        ['report_usage', { model: 'm', input_tokens: 1, output_tokens: 1 }],
        ['end_session', {}],
      ] as const) {
        const res = await call(mcp, name, args);
        expect(res.isError, name).toBe(true);
      }
    } finally {
      await mcp.close();
    }
  });
});
