import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { AnthropicModelServer, type ToolStep } from '../../support/model-server/anthropic';
import type { TestDaemon } from '../../support/daemon';
import {
  installHook,
  pendingWhileRunning,
  type PushProject,
  startAgentStage,
  stopAgentStage,
} from '../../support/agent-e2e';
import { runClaude } from '../../support/claude-cli';

/**
 * Defence in depth with the real Claude Code CLI: `gatehouse hook claude-code --install`
 * (sandbox settings on, the default) and `claude -p` against a scripted model server. What
 * Claude Code does with those settings here, where bubblewrap is not installed, is what the
 * tests record: its own tools refuse Gatehouse's files before any hook runs; its shell
 * commands run without an OS sandbox (it cannot start one), so Gatehouse's hook is what
 * stops them.
 */
describe('the real Claude Code CLI with the sandbox settings the install writes', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: AnthropicModelServer;
  let p: PushProject;
  let token: string;
  let tokenFile: string;

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => AnthropicModelServer.start());
    admin = await d.admin();
    const installed = await installHook(d, p, ['claude-code', '--install']);
    expect(installed.stdout).toMatch(/Turned on Claude Code's sandbox/);
    tokenFile = join(d.home, 'admin.token');
    token = readFileSync(tokenFile, 'utf8').trim();
  });
  afterAll(() => stopAgentStage(admin, model, d, p));

  function claude(steps: ToolStep[]) {
    model.script(steps);
    return runClaude({ cwd: p.project, home: p.home, modelUrl: model.url, env: d.env });
  }

  it("Claude Code's Read of the admin token is refused by Claude Code itself, before any hook", async () => {
    const run = await claude([{ name: 'Read', input: { file_path: tokenFile } }]);
    expect(run.code, run.stderr).toBe(0);
    const [result] = model.toolResults();
    expect(result?.isError).toBe(true);
    expect(model.allRequestText()).not.toContain(token);
    // Nothing reached Gatehouse: the deny rule the install wrote answered first.
    const { requests } = await admin.call('requests.query', {});
    expect(requests).toEqual([]);
  });

  it('a shell command that reads the token is still asked by the hook (no OS sandbox here) and denied', async () => {
    const running = claude([{ name: 'Bash', input: { command: `cat ${tokenFile}` } }]);
    const asked = await pendingWhileRunning(admin, running);
    expect(asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
    await admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(model.allRequestText()).not.toContain(token);
    // What Claude Code says about its sandbox here: without bubblewrap and socat it runs
    // commands without one, and says so.
    if (!hasProgram('bwrap') || !hasProgram('socat'))
      expect(run.stderr).toMatch(
        /Sandbox disabled: .*bubblewrap|Commands will run WITHOUT sandboxing/,
      );
    else expect(run.stderr).not.toMatch(/Sandbox disabled/);
    console.log(`claude-code sandbox e2e: ${JSON.stringify(run.stderr.slice(0, 200))}`);
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
