import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { OpenAiChatModelServer } from '../../support/model-server/openai-chat';
import type { TestDaemon } from '../../support/daemon';
import {
  installHook,
  pendingWhileRunning,
  type PushProject,
  startAgentStage,
  stopAgentStage,
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
  let d: TestDaemon;
  let admin: AdminClient;
  let model: OpenAiChatModelServer;
  let p: PushProject;

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => OpenAiChatModelServer.start());
    admin = await d.admin();
    await installHook(d, p, ['copilot', '--install', '--project', p.project]);
    writeFileSync(join(p.project, 'README.md'), 'hello\n');
    writeFileSync(join(p.project, '.env'), `${SECRET}\n`);
  });

  afterAll(() => stopAgentStage(admin, model, d, p));

  const grep = (paths: string[]) => {
    model.script([
      { name: 'grep', input: { pattern: '.', paths, output_mode: 'content', '-n': true } },
    ]);
    return runCopilotPrompt(d.env, p.home, model.url, p.project);
  };

  it('calibration: Copilot searches every path of the list (both allowed, both printed)', async () => {
    const run = await grep(['README.md', 'notes.txt']);
    expect(run.code, run.stderr).toBe(0);
    const [result] = model.toolResults();
    expect(result?.text).toContain('hello');
    expect(result?.text).toContain('notes.txt');
  }, 120_000);

  it('a secret second in the list asks, and denied it is not printed', async () => {
    const running = grep(['README.md', '.env']);
    const asked = await pendingWhileRunning(admin, running, 'search_files');
    expect(asked.rule).toBe('default:secret_path');
    await admin.call('decide', { requestId: asked.requestId, decision: 'deny' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(model.toolResults())).not.toContain('sk-live');
  }, 120_000);
});
