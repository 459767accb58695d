import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiModelServer, type ToolStep } from '../../support/model-server/gemini';
import {
  type AgentStage,
  closeAgentStage,
  installHook,
  openAgentStage,
  pendingWhileRunning,
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
  let s: AgentStage<GeminiModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => GeminiModelServer.start());
    mkdirSync(join(s.p.home, '.gemini'));
    writeFileSync(
      join(s.p.home, '.gemini', 'settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
    );
    await installHook(s, ['gemini', '--install']);
    mkdirSync(join(s.p.project, 'docs'));
    writeFileSync(join(s.p.project, 'docs', 'inner.txt'), 'inside the project\n');
  });

  afterAll(() => closeAgentStage(s));

  /** `gemini -p` in the project, with Gatehouse's home in its workspace too. */
  function gemini(steps: ToolStep[]) {
    s.model.script(steps);
    return runGeminiPrompt(s.daemon.env, s.p.home, s.model.url, s.p.project, [
      '--include-directories',
      s.daemon.home,
    ]);
  }

  it("`cat admin.token` with dir_path Gatehouse's home asks, and the token never reaches the model", async () => {
    const token = readFileSync(join(s.daemon.home, 'admin.token'), 'utf8').trim();
    expect(token.length).toBeGreaterThan(8);
    const running = gemini([
      {
        name: 'run_shell_command',
        input: { command: 'cat admin.token', description: 'Read a file', dir_path: s.daemon.home },
      },
    ]);
    const asked = await pendingWhileRunning(s.admin, running, 'read_file');
    expect(asked.rule).toBe('protected:gatehouse');
    expect(asked.description).toContain(`[in ${s.daemon.home}]`);
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.text).toContain('Tool execution blocked');
    expect(JSON.stringify(s.model.toolResults())).not.toContain(token);
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
    const [result] = s.model.toolResults();
    expect(result?.text).toContain('inside the project');
    expect((await s.admin.call('pending.list', {})).requests).toEqual([]);
  }, 180_000);
});
