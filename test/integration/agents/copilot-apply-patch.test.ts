import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { OpenAiChatModelServer } from '../../support/model-server/openai-chat';
import {
  type AgentStage,
  closeAgentStage,
  installHook,
  openAgentStage,
} from '../../support/agent-e2e';
import {
  addFilePatch,
  expectGitHookPatchDenied,
  expectPatchApplied,
} from '../../support/agent-patch';
import { runCopilotPrompt } from '../../support/copilot-env';

/**
 * The real Copilot CLI offers a GPT-5 model `apply_patch` (its whole argument a patch) in place
 * of edit and create. Gatehouse reads the files of the patch: under rules that let every edit
 * and write pass (and one a person might have made for the tool itself, when it was a tool
 * Gatehouse did not know), a git hook in the patch still asks, and denied it is not written.
 */
describe('the real Copilot CLI applying a patch (a GPT-5 model)', () => {
  let s: AgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    await installHook(s, ['copilot', '--install', '--project', s.p.project]);
    for (const action of ['edit_file', 'write_file', 'tool:apply_patch'])
      await s.admin.call('rules.add', { action, tier: 'auto' });
  });

  afterAll(() => closeAgentStage(s));

  const applyPatch = (header: string) => {
    s.model.script([{ name: 'apply_patch', input: { input: addFilePatch(header) } }]);
    return runCopilotPrompt(s.daemon.env, s.p.home, s.model.url, s.p.project, [], true, 'gpt-5.5');
  };

  it('calibration: Copilot applies the patch, and the rule lets it pass', async () => {
    await expectPatchApplied(
      s.admin,
      join(s.p.project, 'made.txt'),
      applyPatch('*** Add File: made.txt'),
    );
  }, 120_000);

  it('a git hook in the patch asks as a protected path, and denied it is not written', async () => {
    await expectGitHookPatchDenied(
      s.admin,
      s.p.project,
      applyPatch('*** Add File: .git/hooks/pre-commit'),
    );
  }, 120_000);
});
