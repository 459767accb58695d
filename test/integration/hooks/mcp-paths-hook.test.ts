import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { callDenyingAsks } from '../../support/claude-hook';
import { ROOT, TestDaemon } from '../../support/daemon';

/** Runs `use` with a client of the test MCP server (a real stdio server process). */
async function withEchoServer<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'gatehouse-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'test', 'fixtures', 'mcp', 'echo-server.mjs')],
    }),
  );
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** Calls a tool of the test MCP server: the text it returns. */
const callEchoServer = (tool: string, args: Record<string, unknown>): Promise<string> =>
  withEchoServer(async (client) => {
    const r = (await client.callTool({ name: tool, arguments: args })) as {
      content: { type: string; text?: string }[];
    };
    return r.content.map((c) => c.text ?? '').join('');
  });

/** Reads a resource of the test MCP server, as Claude Code's ReadMcpResourceTool does. */
const readEchoResource = (uri: string): Promise<string> =>
  withEchoServer(async (client) => {
    const r = await client.readResource({ uri });
    return r.contents.map((c) => ('text' in c ? c.text : '')).join('');
  });

/**
 * An MCP tool's input names files as a file tool's does (`read_text_file{path}`): a rule that
 * allows the tool must not cover Gatehouse's own files or a protected location. Real hook
 * processes against a real daemon whose person allows the tool by rule; a call that asks is
 * denied, one allowed is performed by the real MCP server and what it returned is checked.
 */
describe("an MCP tool's paths (real hook, real daemon, real MCP server)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let token: string;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-mcp-paths-')));
  const project = join(dir, 'project');

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'notes.txt'), 'project notes\n');
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    token = readFileSync(join(d.home, 'admin.token'), 'utf8').trim();
    await admin.call('rules.add', { action: 'mcp:echo:read_text_file', tier: 'auto' });
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = (path: string) =>
    callDenyingAsks({
      env: d.env,
      admin,
      tool: 'mcp__echo__read_text_file',
      input: { path },
      cwd: project,
      session: 'mcp-paths',
      asked: (r) => r.action === 'mcp:echo:read_text_file',
      perform: () => '',
    });

  it('calibration: the server returns the text of the file it is given (no hook)', async () => {
    expect(await callEchoServer('read_text_file', { path: join(d.home, 'admin.token') })).toContain(
      token,
    );
  });

  it("reading Gatehouse's admin token through it asks, critical, though a rule allows the tool; denied, nothing is read", async () => {
    const path = join(d.home, 'admin.token');
    const r = await read(path);
    const printed = r.decision === 'allow' ? await callEchoServer('read_text_file', { path }) : '';
    expect(printed, 'the call was allowed and the server returned this').not.toContain(token);
    expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
    expect(r.decision).toBe('deny');
  });

  it("a resource read of the admin token's file:// URI asks, critical, though Claude Code counts resource reads as its own; denied, nothing is read", async () => {
    const uri = `file://${join(d.home, 'admin.token')}`;
    expect(await readEchoResource(uri), 'calibration: the server serves files').toContain(token);
    const r = await callDenyingAsks({
      env: d.env,
      admin,
      tool: 'ReadMcpResourceTool',
      input: { server: 'echo', uri },
      cwd: project,
      session: 'mcp-paths',
      asked: (q) => q.rule === 'protected:gatehouse',
    });
    // No answer at all is Claude Code going on with the read, as allowed.
    const printed = r.decision !== 'deny' ? await readEchoResource(uri) : '';
    expect(printed, 'the read went on and the server returned this').not.toContain(token);
    expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
    expect(r.decision).toBe('deny');
  });

  it("a resource that is not a file stays Claude Code's own: no answer at all", async () => {
    const r = await callDenyingAsks({
      env: d.env,
      admin,
      tool: 'ReadMcpResourceTool',
      input: { server: 'echo', uri: 'echo://notes' },
      cwd: project,
      session: 'mcp-paths',
      asked: () => true,
    });
    expect(r).toMatchObject({ decision: undefined, printed: '' });
    expect(r.asked).toBeUndefined();
  });

  it('a file of the project goes through on the rule, and the server reads it', async () => {
    const path = join(project, 'notes.txt');
    const r = await read(path);
    expect(r.decision).toBe('allow');
    expect(await callEchoServer('read_text_file', { path })).toBe('project notes\n');
  });
});
