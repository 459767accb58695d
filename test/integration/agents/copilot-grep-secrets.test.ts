import { rmSync, writeFileSync } from 'node:fs';
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

const KEY = 'sk-live-grep-5b1e9c';

/**
 * The real Copilot CLI's grep runs rg with hidden files read and .gitignore honoured. In
 * content mode over the project it printed a `.env` that .gitignore does not name, auto-
 * allowed, while `cat .env` asked. Such a search asks now (the project is walked for a secret
 * it would print); one that reads no secret line (a `.env` .gitignore keeps out, names only)
 * goes ahead. Every call Gatehouse lets through is performed by Copilot, and what it printed
 * to the model is checked.
 */
describe("the real Copilot CLI's grep and the project's .env", () => {
  let s: AgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    await installHook(s, ['copilot', '--install', '--project', s.p.project]);
    writeFileSync(join(s.p.project, '.env'), `API_KEY=${KEY}\n`);
  });
  afterAll(() => closeAgentStage(s));

  const grep = (input: Record<string, unknown>) => {
    s.model.script([{ name: 'grep', input: { pattern: 'API_KEY', ...input } }]);
    return runCopilotPrompt(s.daemon.env, s.p.home, s.model.url, s.p.project);
  };
  const printed = () => s.model.toolResults().at(-1)?.text ?? '';

  it('content mode over the project asks; approved, Copilot prints the key (calibration); denied, it does not', async () => {
    for (const decision of ['approve', 'deny'] as const) {
      const running = grep({ output_mode: 'content', '-n': true });
      const asked = await pendingWhileRunning(s.admin, running, 'search_files');
      expect(asked.rule).toBe('default:secret_path');
      expect(asked.ruleReason).toMatch(/prints the lines it matches of .*\.env/);
      await s.admin.call('decide', { requestId: asked.requestId, decision });
      const run = await running;
      expect(run.code, run.stderr).toBe(0);
      if (decision === 'approve') expect(printed()).toContain(KEY);
      else expect(JSON.stringify(s.model.toolResults())).not.toContain(KEY);
    }
  }, 240_000);

  it('names only (its default) goes ahead and prints the name, not the key', async () => {
    const run = await grep({});
    expect(run.code, run.stderr).toBe(0);
    expect(printed()).toContain('.env');
    expect(printed()).not.toContain(KEY);
  }, 120_000);

  it('with .env in .gitignore, content mode goes ahead and prints no key', async () => {
    writeFileSync(join(s.p.project, '.gitignore'), '.env\n');
    try {
      const run = await grep({ output_mode: 'content' });
      expect(run.code, run.stderr).toBe(0);
      expect(printed()).toMatch(/No matches/);
      expect(printed()).not.toContain(KEY);
    } finally {
      rmSync(join(s.p.project, '.gitignore'));
    }
  }, 120_000);
});
