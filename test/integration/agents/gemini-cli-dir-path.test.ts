import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { GeminiModelServer, type ToolStep } from '../../support/model-server/gemini';
import type { TestDaemon } from '../../support/daemon';
import {
  installHook,
  pendingWhileRunning,
  type PushProject,
  startAgentStage,
  stopAgentStage,
} from '../../support/agent-e2e';
import { runGeminiPrompt } from '../../support/gemini-env';

/**
 * The real Gemini CLI (0.61.0) runs `run_shell_command` in `dir_path`, resolved against the
 * project and allowed anywhere in the workspace (`--include-directories` widens it). The
 * scripted model reads Gatehouse's admin token with a relative `cat` in Gatehouse's home:
 * Gatehouse must judge the command there (it asks, critical), and the token must not reach
 * the model. An ordinary read in a project folder stays auto and really runs there.
 */
describe('the real Gemini CLI: a shell command is judged in its dir_path', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: GeminiModelServer;
  let p: PushProject;

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => GeminiModelServer.start());
    admin = await d.admin();
    mkdirSync(join(p.home, '.gemini'));
    writeFileSync(
      join(p.home, '.gemini', 'settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
    );
    await installHook(d, p, ['gemini', '--install']);
    mkdirSync(join(p.project, 'docs'));
    writeFileSync(join(p.project, 'docs', 'inner.txt'), 'inside the project\n');
  });

  afterAll(() => stopAgentStage(admin, model, d, p));

  /** `gemini -p` in the project, with Gatehouse's home in its workspace too. */
  function gemini(steps: ToolStep[]) {
    model.script(steps);
    return runGeminiPrompt(d.env, p.home, model.url, p.project, ['--include-directories', d.home]);
  }

  it("`cat admin.token` with dir_path Gatehouse's home asks, and the token never reaches the model", async () => {
    const token = readFileSync(join(d.home, 'admin.token'), 'utf8').trim();
    expect(token.length).toBeGreaterThan(8);
    const running = gemini([
      {
        name: 'run_shell_command',
        input: { command: 'cat admin.token', description: 'Read a file', dir_path: d.home },
      },
    ]);
    const asked = await pendingWhileRunning(admin, running, 'read_file');
    expect(asked.rule).toBe('protected:gatehouse');
    expect(asked.description).toContain(`[in ${d.home}]`);
    await admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const [result] = model.toolResults();
    expect(result?.text).toContain('Tool execution blocked');
    expect(JSON.stringify(model.toolResults())).not.toContain(token);
    expect(run.stdout).not.toContain(token);
  }, 180_000);

  it('a relative read in a dir_path inside the project stays auto and runs there', async () => {
    const run = await gemini([
      {
        name: 'run_shell_command',
        input: { command: 'cat inner.txt', description: 'Read a file', dir_path: 'docs' },
      },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [result] = model.toolResults();
    expect(result?.text).toContain('inside the project');
    expect((await admin.call('pending.list', {})).requests).toEqual([]);
  }, 180_000);
});
