import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicModelServer, type ToolStep } from '../../support/model-server/anthropic';
import {
  type AgentStage,
  closeAgentStage,
  installHook,
  openAgentStage,
  pendingWhileRunning,
} from '../../support/agent-e2e';
import { runClaude } from '../../support/claude-cli';

/**
 * Defence in depth with the real Claude Code CLI: `gatehouse hook claude-code --install`
 * (sandbox settings on, the default) and `claude -p` against a scripted model server, with
 * bubblewrap and socat installed (scripts/install-test-deps.sh): its own tools refuse
 * Gatehouse's files before any hook runs; Gatehouse's hook asks about shell commands that
 * reach them; and when the person approves anyway, Claude Code's OS sandbox still hides the
 * token, and keeps in the project a write whose path Gatehouse could not tell. What a person
 * approved otherwise runs outside the sandbox (claude-code-sandbox-approvals.test.ts).
 */
describe('the real Claude Code CLI with the sandbox settings the install writes', () => {
  let s: AgentStage<AnthropicModelServer>;
  let token: string;
  let tokenFile: string;

  beforeAll(async () => {
    s = await openAgentStage(() => AnthropicModelServer.start());
    const installed = await installHook(s, ['claude-code', '--install']);
    expect(installed.stdout).toMatch(/Turned on Claude Code's sandbox/);
    tokenFile = join(s.daemon.home, 'admin.token');
    token = readFileSync(tokenFile, 'utf8').trim();
  });
  afterAll(() => closeAgentStage(s));

  function claude(steps: ToolStep[]) {
    const { daemon, model, p } = s;
    model.script(steps);
    return runClaude({ cwd: p.project, home: p.home, modelUrl: model.url, env: daemon.env });
  }

  it("Claude Code's Read of the admin token is refused by Claude Code itself, before any hook", async () => {
    const run = await claude([{ name: 'Read', input: { file_path: tokenFile } }]);
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.isError).toBe(true);
    expect(s.model.allRequestText()).not.toContain(token);
    // Nothing reached Gatehouse: the deny rule the install wrote answered first.
    const { requests } = await s.admin.call('requests.query', {});
    expect(requests).toEqual([]);
  });

  it('a shell command that reads the token is asked by the hook first, and denied', async () => {
    const running = claude([{ name: 'Bash', input: { command: `cat ${tokenFile}` } }]);
    const asked = await pendingWhileRunning(s.admin, running);
    expect(asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(s.model.allRequestText()).not.toContain(token);
    // What Claude Code says about its sandbox here: without bubblewrap and socat it runs
    // commands without one, and says so.
    if (!hasProgram('bwrap') || !hasProgram('socat'))
      expect(run.stderr).toMatch(
        /Sandbox disabled: .*bubblewrap|Commands will run WITHOUT sandboxing/,
      );
    else expect(run.stderr).not.toMatch(/Sandbox disabled/);
    console.log(`claude-code sandbox e2e: ${JSON.stringify(run.stderr.slice(0, 200))}`);
  });

  /**
   * The person approves what the hook asked. Where Gatehouse saw Gatehouse's own files or
   * could not tell which files the command touches, Claude Code's own sandbox (bubblewrap,
   * with the settings the install wrote) still runs it and keeps it from the token; anything
   * else the person approved runs outside it. Here bubblewrap and socat are installed
   * (scripts/install-test-deps.sh); where they are not, the test says so and fails.
   */
  async function approvedShell(command: string) {
    const running = claude([{ name: 'Bash', input: { command } }]);
    const asked = await pendingWhileRunning(s.admin, running);
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'approve' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/Sandbox disabled|WITHOUT sandboxing/);
    const [result] = s.model.toolResults();
    return { asked, result };
  }

  it.each([
    // Claude Code's own permission check sees this path and refuses before any shell runs.
    [(f: string) => `cat ${f}`, /Permission to use Bash .* has been denied/],
    // Built at run time: only the OS sandbox stands between the shell and the file, which
    // bubblewrap does not mount in.
    [
      (f: string) => `f=$(printf '%s' ${JSON.stringify(f.slice(0, -5))}'token'); cat "$f"`,
      /admin\.token: No such file or directory/,
    ],
  ] as const)('an approved read of the admin token is still refused (%#)', async (build, why) => {
    expect(hasProgram('bwrap') && hasProgram('socat')).toBe(true);
    const { result } = await approvedShell(build(tokenFile));
    expect(result?.text).toMatch(why);
    expect(result?.text).not.toContain(token);
    expect(s.model.allRequestText()).not.toContain(token);
    console.log(`sandboxed read of the token: ${JSON.stringify(result?.text.slice(0, 200))}`);
  });

  it('an approved read of the audit key is asked first and still refused by the sandbox', async () => {
    // The key that signs the audit chain: whoever reads it can re-sign a rewritten trail.
    const keyFile = join(s.daemon.home, 'audit.key');
    const key = readFileSync(keyFile, 'utf8');
    const body = key.split('\n')[1]!;
    expect(hasProgram('bwrap') && hasProgram('socat')).toBe(true);
    const { asked, result } = await approvedShell(
      `f=$(printf '%s' ${JSON.stringify(keyFile.slice(0, -3))}'key'); cat "$f"`,
    );
    // Built at run time, Gatehouse cannot tell which file it reads: asked, and the sandbox stays.
    expect(asked.rule).toBe('shell:opaque');
    expect(result?.text).toMatch(/audit\.key: No such file or directory/);
    expect(result?.text).not.toContain(body);
    expect(s.model.allRequestText()).not.toContain(body);
    console.log(`sandboxed read of the audit key: ${JSON.stringify(result?.text.slice(0, 200))}`);
  });

  it('an approved write outside the project runs outside the sandbox: the person saw where', async () => {
    const outside = join(s.p.dir, 'outside-written');
    const { result } = await approvedShell(`echo approved > ${outside}`);
    expect(result?.isError, result?.text).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('approved\n');
  });

  it('an approved write to a path built at run time stays in the sandbox, which refuses it', async () => {
    const outside = join(s.p.dir, 'outside-built');
    const { asked, result } = await approvedShell(
      `d=$(printf '%s' ${JSON.stringify(s.p.dir)}); echo pwned > "$d/outside-built"`,
    );
    // Gatehouse cannot tell where it writes: the sandbox stays, and keeps it in the project.
    expect(asked.rule).toBe('shell:opaque');
    expect(existsSync(outside)).toBe(false);
    expect(result?.text).toMatch(/Read-only file system/);
    console.log(`sandboxed write outside: ${JSON.stringify(result?.text.slice(0, 200))}`);
  });

  it('an approved connection leaves the sandbox and reaches the server', async () => {
    let hits = 0;
    const web = createServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    try {
      const port = (web.address() as AddressInfo).port;
      const { result } = await approvedShell(`curl -sS -m 5 http://127.0.0.1:${port}/`);
      console.log(`approved connection: ${JSON.stringify(result?.text.slice(0, 200))}`);
      expect(hits).toBe(1);
      expect(result?.text).toContain('reached');
    } finally {
      await new Promise((resolve) => web.close(resolve));
    }
  });

  it('calibration: an approved write inside the project does happen under the sandbox', async () => {
    const inside = join(s.p.project, 'inside-written');
    const running = claude([{ name: 'Bash', input: { command: `echo ok > ${inside}` } }]);
    const asked = await pendingWhileRunning(s.admin, running).catch(() => undefined);
    if (asked) await s.admin.call('decide', { requestId: asked.requestId, decision: 'approve' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(inside, 'utf8')).toBe('ok\n');
  });
});

function hasProgram(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
