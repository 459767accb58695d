import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiChatModelServer } from '../../support/model-server/openai-chat';
import {
  type AgentStage,
  closeAgentStage,
  installHook,
  openAgentStage,
  pendingWhileRunning,
} from '../../support/agent-e2e';
import { runCopilotPrompt } from '../../support/copilot-env';

const SECRET = 'API_KEY=sk-live-0123456789';

/**
 * The real Copilot CLI's grep and glob take `paths`, a list, and search every path in it.
 * Gatehouse judged only the first: `grep{pattern: ".", paths: ["README.md", ".env"]}` was an
 * auto search of README.md, and Copilot printed the `.env` to the model. Every path of the
 * list is judged now.
 */
describe('the real Copilot CLI searching a list of paths', () => {
  let s: AgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    await installHook(s, ['copilot', '--install', '--project', s.p.project]);
    writeFileSync(join(s.p.project, 'README.md'), 'hello\n');
    writeFileSync(join(s.p.project, '.env'), `${SECRET}\n`);
  });

  afterAll(() => closeAgentStage(s));

  const grep = (paths: string[]) => {
    s.model.script([
      { name: 'grep', input: { pattern: '.', paths, output_mode: 'content', '-n': true } },
    ]);
    return runCopilotPrompt(s.daemon.env, s.p.home, s.model.url, s.p.project);
  };

  it('calibration: Copilot searches every path of the list (both allowed, both printed)', async () => {
    const run = await grep(['README.md', 'notes.txt']);
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.text).toContain('hello');
    expect(result?.text).toContain('notes.txt');
  }, 120_000);

  it('a secret second in the list asks, and denied it is not printed', async () => {
    const running = grep(['README.md', '.env']);
    const asked = await pendingWhileRunning(s.admin, running, 'search_files');
    expect(asked.rule).toBe('default:secret_path');
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(s.model.toolResults())).not.toContain('sk-live');
  }, 120_000);
});
