/**
 * A command hook's calls as the daemon sees them, one after another: a fresh connection,
 * `hello` with the session key and `gate` in one write, then the close. The daemon answers
 * both in one write, and what changed between two calls (the session ended, the agent
 * killed) is seen by the second. The daemon's core runs in this process (createCore, its real
 * agent socket), so that the test reads each write of the daemon as its own chunk: the daemon's
 * writes come on different turns of the event loop, and the client reads between them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../main/core';

let dir: string;
let project: string;
let core: Core;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-hook-calls-'));
  project = join(dir, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(join(project, 'README.md'), 'hello\n');
  core = createCore({ home: join(dir, 'home'), socketPath: join(dir, 'run', 'agent.sock') });
  await core.listen();
});
afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Reply {
  id: number;
  result?: { sessionId?: string; outcome?: string; reason?: string };
  error?: { code: number; message: string };
}

/** One tool call of a command hook: its replies, and how many chunks they came in. */
function hookCall(
  agent: string,
  sessionKey: string,
): Promise<{ replies: Reply[]; chunks: number }> {
  const hello = { agent, sessionKey, project, labels: { client: 'claude-code' } };
  const gate = {
    client: 'claude-code',
    event: 'PreToolUse',
    tool: 'Read',
    input: { file_path: join(project, 'README.md') },
    cwd: project,
  };
  const text = [
    { jsonrpc: '2.0', id: 1, method: 'hello', params: hello },
    { jsonrpc: '2.0', id: 2, method: 'gate', params: gate },
  ]
    .map((m) => `${JSON.stringify(m)}\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = connect(core.socketPath);
    let buffer = '';
    let chunks = 0;
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(text));
    socket.on('error', reject);
    socket.on('data', (d: string) => {
      chunks++;
      buffer += d;
      const lines = buffer.split('\n').filter(Boolean);
      // The two answers (a control notice may come between them: it has no id).
      const replies = lines.map((l) => JSON.parse(l) as Reply).filter((m) => m.id !== undefined);
      if (replies.length < 2) return;
      socket.destroy();
      resolve({ replies, chunks });
    });
  });
}

describe("a command hook's calls in a row", () => {
  it('answers hello and gate in one write once the session exists', async () => {
    const first = await hookCall('claude-code', 'row-1');
    expect(first.replies.map((r) => r.id)).toEqual([1, 2]);
    for (let i = 0; i < 5; i++) {
      const call = await hookCall('claude-code', 'row-1');
      expect(call.replies[0]?.result?.sessionId).toBe(first.replies[0]?.result?.sessionId);
      expect(call.replies[1]?.result?.outcome).toBe('allow');
      expect(call.chunks).toBe(1);
    }
  });

  it('resumes the session an agent ended between two calls', async () => {
    const first = await hookCall('claude-code', 'row-2');
    const sessionId = first.replies[0]!.result!.sessionId!;
    const ended = await new Promise<Reply[]>((resolve, reject) => {
      const socket = connect(core.socketPath);
      let buffer = '';
      socket.setEncoding('utf8');
      socket.on('error', reject);
      socket.on('connect', () =>
        socket.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hello', params: { agent: 'claude-code', sessionKey: 'row-2', project } })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'end', params: { status: 'completed' } })}\n`,
        ),
      );
      socket.on('data', (d: string) => {
        buffer += d;
        const replies = buffer
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Reply);
        if (replies.length < 2) return;
        socket.destroy();
        resolve(replies);
      });
    });
    expect(ended[1]?.error).toBeUndefined();
    expect(
      core.engine.admin.call('session.get', { sessionId, requestsLimit: 0, transcriptLimit: 1 })
        .session.status,
    ).toBe('completed');
    const next = await hookCall('claude-code', 'row-2');
    expect(next.replies[0]?.result?.sessionId).toBe(sessionId);
    expect(next.replies[1]?.result?.outcome).toBe('allow');
    expect(
      core.engine.admin.call('session.get', { sessionId, requestsLimit: 0, transcriptLimit: 1 })
        .session.status,
    ).toBe('active');
  });

  it('refuses the call of an agent killed between two calls', async () => {
    const before = await hookCall('killed-agent', 'row-3');
    expect(before.replies[1]?.result?.outcome).toBe('allow');
    await core.engine.admin.call('kill', { agent: 'killed-agent', reason: 'enough' });
    const after = await hookCall('killed-agent', 'row-3');
    expect(after.replies[0]?.result?.sessionId).toBe(before.replies[0]?.result?.sessionId);
    expect(after.replies[1]?.result?.outcome).not.toBe('allow');
    expect(JSON.stringify(after.replies[1])).toContain('enough');
  });
});
