import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { CLI, daemonPerDescribe, type TestDaemon, waitForPending } from '../../support/daemon';

/**
 * One-time grants and envelopes are used up on every path that allows a call,
 * the hook's `gate` included. Each grant kind is reused past its limit through the real
 * `gatehouse hook claude-code` process against a real daemon, and the next call asks.
 */
describe('grants are used up on every allow path (real hook, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-grants-')));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  /** A call that asks by default (web_fetch), for a URL of the test's own. */
  const fetchCall = (url: string, session?: string) =>
    preToolUse('WebFetch', { url, prompt: 'summarise' }, compactOpts({ cwd: project, session }));

  /** The hook as an agent runs it: a person has `waitMs` to answer, then it says no. */
  const hook = (payload: Record<string, unknown>, waitMs = 300) =>
    runClaudeHook(
      { ...d.env, GATEHOUSE_HOOK_WAIT_MS: String(waitMs), GATEHOUSE_HOOK_FALLBACK: 'deny' },
      payload,
    );

  /** Runs the call while a person approves it with the CLI `args`. */
  async function approvedWith(url: string, args: string[], session?: string) {
    const running = hook(fetchCall(url, session), 20_000);
    const req = await waitForPending(admin, (r) => r.target === url);
    const cli = await d.cli(['approve', req.requestId, ...args]);
    expect(cli.code, cli.stderr).toBe(0);
    const r = await running;
    expect(r.decision).toBe('allow');
    return req;
  }

  /** The requests filed for a URL, oldest first. */
  const requestsFor = async (url: string) =>
    (await admin.call('requests.query', { action: 'web_fetch', limit: 100 })).requests
      .filter((r) => r.target === url)
      .reverse();

  it('a late approval ("exactly this, once") lets the next identical call through once', async () => {
    const url = 'https://example.com/late';
    expect((await hook(fetchCall(url))).decision).toBe('deny');
    const [timedOut] = await requestsFor(url);
    expect(timedOut).toMatchObject({ status: 'timed_out' });
    expect((await d.cli(['approve', timedOut!.requestId])).code).toBe(0);
    const once = await hook(fetchCall(url));
    expect(once.decision).toBe('allow');
    expect(once.reason).toMatch(/allowed by late approval grant gra-/);
    const again = await hook(fetchCall(url));
    expect(again.decision).toBe('deny');
    // It asked: a new request was filed and waited for a person.
    expect((await requestsFor(url)).map((r) => r.status)).toEqual(['approved', 'timed_out']);
    const used = await admin.call('audit.query', { type: 'grant.used', limit: 100 });
    expect(used.events.some((e) => e.data.action === 'web_fetch')).toBe(true);
  });

  it('--uses 2 lets exactly two more identical calls through, then asks', async () => {
    const url = 'https://example.com/uses';
    await approvedWith(url, ['--uses', '2']);
    for (let i = 0; i < 2; i++) {
      const r = await hook(fetchCall(url));
      expect(r.decision, `use ${i + 1}`).toBe('allow');
      expect(r.reason).toMatch(/envelope grant/);
    }
    expect((await hook(fetchCall(url))).decision).toBe('deny');
    expect((await requestsFor(url)).map((r) => r.status)).toEqual(['approved', 'timed_out']);
  });

  it('--minutes lets calls through until the time is up, then asks', async () => {
    const url = 'https://example.com/minutes';
    // 0.025 min = 1.5 s.
    await approvedWith(url, ['--minutes', '0.025']);
    const approvedAt = Date.now();
    expect((await hook(fetchCall(url))).decision).toBe('allow');
    expect((await hook(fetchCall(url))).decision).toBe('allow');
    await new Promise((r) => setTimeout(r, Math.max(0, approvedAt + 1_600 - Date.now())));
    expect((await hook(fetchCall(url))).decision).toBe('deny');
    expect((await requestsFor(url)).at(-1)).toMatchObject({ status: 'timed_out' });
  });

  it('a spend envelope ends when the agent has spent it, then the call asks', async () => {
    const url = 'https://example.com/spend';
    await approvedWith(url, ['--max-spend', '1']);
    expect((await hook(fetchCall(url))).decision).toBe('allow');
    // The same agent reports $1.50 of model spend (its session as the hook named it).
    const sdk = await d.agent({ agent: 'claude-code', sessionKey: 'cc-grants', project });
    await sdk.usage({ model: 'test-model', inputTokens: 10, outputTokens: 10, costUsd: 1.5 });
    sdk.close();
    expect((await hook(fetchCall(url))).decision).toBe('deny');
    expect((await requestsFor(url)).at(-1)).toMatchObject({ status: 'timed_out' });
  });

  it('a session approval covers that session only: another session asks', async () => {
    const url = 'https://example.com/session';
    await approvedWith(url, ['--scope', 'session'], 'cc-one');
    expect((await hook(fetchCall(url, 'cc-one'))).decision).toBe('allow');
    expect((await hook(fetchCall(url, 'cc-one'))).decision).toBe('allow');
    expect((await hook(fetchCall(url, 'cc-two'))).decision).toBe('deny');
    expect((await requestsFor(url)).at(-1)).toMatchObject({ status: 'timed_out' });
  });

  it("the MCP server's tools: check_action never says go ahead on a grant; request_permission uses it up", async () => {
    const mcp = new Client({ name: 'mcp-grants', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--project', project],
        env: d.env as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      const ask = { action: 'deploy', target: 'mcp-staging', description: 'deploy' };
      const first = mcpTool(mcp, 'request_permission', ask);
      const req = await waitForPending(admin, (r) => r.target === 'mcp-staging');
      const cli = await d.cli(['approve', req.requestId, '--uses', '1']);
      expect(cli.code, cli.stderr).toBe(0);
      expect(await first).toMatchObject({ approved: true });
      const check = { action: 'deploy', target: 'mcp-staging' };
      for (let i = 0; i < 2; i++)
        expect(await mcpTool(mcp, 'check_action', check)).toMatchObject({
          needs_permission: true,
          rule: expect.stringMatching(/^grant:/),
        });
      expect(await mcpTool(mcp, 'request_permission', ask)).toMatchObject({
        approved: true,
        decided_by: 'grant',
      });
      expect(await mcpTool(mcp, 'check_action', check)).toMatchObject({
        needs_permission: true,
        rule: 'default:deploy',
      });
      expect(await mcpTool(mcp, 'request_permission', { ...ask, wait_seconds: 1 })).toMatchObject({
        approved: false,
        status: 'queued',
      });
    } finally {
      await mcp.close();
    }
  });

  it('classify only reports a grant (ask, naming it) and never uses it; request uses it', async () => {
    const agent = await d.agent({ agent: 'sdk-grants', project });
    const action = { action: 'deploy', target: 'staging', description: 'deploy to staging' };
    const first = await agent.request({ ...action, timeoutMs: 100 });
    expect(first.status).toBe('timed_out');
    expect((await d.cli(['approve', first.requestId])).code).toBe(0);
    for (let i = 0; i < 3; i++) {
      const c = await agent.classify({ action: 'deploy', target: 'staging' });
      expect(c).toMatchObject({ tier: 'ask', rule: expect.stringMatching(/^grant:/) });
    }
    expect(await agent.request({ ...action, timeoutMs: 100 })).toMatchObject({
      status: 'approved',
      decidedBy: 'grant',
    });
    expect((await agent.classify({ action: 'deploy', target: 'staging' })).rule).toBe(
      'default:deploy',
    );
    expect((await agent.request({ ...action, timeoutMs: 100 })).status).toBe('timed_out');
    agent.close();
  });
});

/** The structured result of one MCP tool call. */
async function mcpTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const r = (await client.callTool({ name, arguments: args })) as {
    structuredContent?: Record<string, unknown>;
  };
  return r.structuredContent ?? {};
}

function compactOpts(o: { cwd: string; session?: string | undefined }): {
  cwd: string;
  session?: string | undefined;
} {
  return o.session === undefined ? { cwd: o.cwd } : o;
}
