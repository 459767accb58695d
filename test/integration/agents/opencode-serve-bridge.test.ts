import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '../../support/stop-child';
import { OpenAiChatModelServer, type ToolStep } from '../../support/model-server/openai-chat';
import { CLI } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
  openAgentStage,
  waitForAnyPending,
} from '../../support/agent-e2e';
import { OPENCODE, opencodeEnv, writeOpencodeConfig } from '../../support/opencode-env';

/**
 * The real `opencode serve` (pinned in test/agents/package.json) with its own permission for
 * bash left at "ask", and `gatehouse opencode-bridge --url …` answering its permission.asked
 * events from a real daemon: the person's decision in Gatehouse becomes OpenCode's reply.
 */
interface ToolState {
  status: string;
  error?: string;
}
interface MessageWithParts {
  parts: { type: string; tool?: string; state?: ToolState }[];
}

/** Starts a process and resolves once a line of its output matches. */
function startUntil(
  cmd: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv },
  ready: RegExp,
): Promise<{ proc: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const proc = spawn(cmd, args, { ...o, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString();
      const match = ready.exec(output);
      if (match) resolve({ proc, match, output: () => output });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`${cmd} exited ${code}:\n${output}`)));
  });
}

describe('opencode serve with gatehouse opencode-bridge', () => {
  let s: AgentStage<OpenAiChatModelServer>;
  let serve: ChildProcess;
  let bridge: ChildProcess;
  let base: string;

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    writeOpencodeConfig(s.p.project, s.model.url, ['bash']);
    const env = opencodeEnv(process.env, s.p.dir, s.p.project);
    const served = await startUntil(
      OPENCODE,
      ['serve', '--hostname', '127.0.0.1', '--port', '0'],
      { cwd: s.p.project, env },
      /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    );
    serve = served.proc;
    base = served.match[1]!;
    const bridged = await startUntil(
      process.execPath,
      [CLI, 'opencode-bridge', '--url', base],
      { cwd: s.p.project, env: s.daemon.env },
      /following .*\/event/,
    );
    bridge = bridged.proc;
  }, 120_000);

  afterAll(async () => {
    await stopChild(bridge);
    await stopChild(serve);
    await closeAgentStage(s);
  });

  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
    return (await res.json()) as T;
  }

  /** A new OpenCode session prompted to make these calls; returns its id. */
  async function prompt(steps: ToolStep[]): Promise<string> {
    s.model.script(steps);
    const { id } = await api<{ id: string }>('POST', '/session', {});
    const res = await fetch(`${base}/session/${id}/prompt_async`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ parts: [{ type: 'text', text: 'Do the scripted work.' }] }),
    });
    expect(res.ok).toBe(true);
    return id;
  }

  /** Polls the session's messages until its bash call has finished. */
  async function bashOutcome(session: string): Promise<ToolState> {
    for (;;) {
      const messages = await api<MessageWithParts[]>('GET', `/session/${session}/message`);
      const state = messages
        .flatMap((m) => m.parts)
        .find((x) => x.type === 'tool' && x.tool === 'bash')?.state;
      if (state && (state.status === 'completed' || state.status === 'error')) return state;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const push: ToolStep = {
    name: 'bash',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it("OpenCode's own ask waits for a person in Gatehouse; approved, the push lands", async () => {
    const started = Date.now();
    const head = s.p.head();
    const session = await prompt([push]);
    const pending = await waitForAnyPending(s.admin, 60_000);
    // The bridge reads the session's folder from OpenCode: the project's policy applies.
    expect(pending).toMatchObject({
      action: 'git_push',
      target: 'origin main',
      project: s.p.project,
    });
    expect(s.p.remoteHead()).toBeUndefined();
    await s.admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    expect((await bashOutcome(session)).status).toBe('completed');
    expect(s.p.remoteHead()).toBe(head);
    console.log(
      `opencode serve e2e: approved push in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 120_000);

  it('denied in Gatehouse, OpenCode rejects the call with the reason and nothing lands', async () => {
    const started = Date.now();
    const before = s.p.remoteHead();
    s.p.commit('second');
    const session = await prompt([push]);
    const pending = await waitForAnyPending(s.admin, 60_000);
    await s.admin.call('decide', {
      requestId: pending.requestId,
      decision: 'deny',
      reason: 'not before the release',
    });
    const state = await bashOutcome(session);
    expect(state.status).toBe('error');
    expect(state.error).toContain('not before the release');
    expect(s.p.remoteHead()).toBe(before);
    console.log(
      `opencode serve e2e: denied push in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 120_000);
});
