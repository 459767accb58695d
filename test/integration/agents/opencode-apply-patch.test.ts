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
import { runOpencode, writeOpencodeConfig } from '../../support/opencode-env';

/**
 * The real OpenCode offers a GPT model `apply_patch{patchText}` instead of edit and write, and
 * reads `*** Add File:` with or without the space after the colon. Gatehouse reads the files
 * of the patch (patch-envelope.ts): under rules that let every edit and write pass (and one
 * a person might have made for the tool itself, when it was a tool Gatehouse did not know), a
 * git hook in the patch still asks, and denied it is not written.
 */
describe('the real OpenCode applying a patch (a GPT model)', () => {
  let s: AgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    // OpenCode 1.18 offers apply_patch to a model whose id holds "gpt-" (not gpt-4, not oss).
    writeOpencodeConfig(s.p.project, s.model.url, [], {
      provider: {
        e2e: {
          npm: '@ai-sdk/openai-compatible',
          name: 'E2E',
          options: { baseURL: `${s.model.url}/v1`, apiKey: 'e2e-test-key' },
          models: { 'gpt-5-e2e': { name: 'E2E GPT model', tool_call: true } },
        },
      },
      model: 'e2e/gpt-5-e2e',
    });
    await installHook(s, ['opencode', '--install', '--project', s.p.project]);
    for (const action of ['edit_file', 'write_file', 'tool:apply_patch'])
      await s.admin.call('rules.add', { action, tier: 'auto' });
  });

  afterAll(() => closeAgentStage(s));

  const applyPatch = (header: string) => {
    s.model.script([
      {
        name: 'apply_patch',
        input: { patchText: addFilePatch(header) },
      },
    ]);
    return runOpencode(s.daemon.env, s.p.dir, s.p.project);
  };

  it('calibration: OpenCode applies a header with no space after the colon, and the rule lets it pass', async () => {
    await expectPatchApplied(
      s.admin,
      join(s.p.project, 'made.txt'),
      applyPatch('*** Add File:made.txt'),
    );
  }, 240_000);

  it('a git hook in the patch asks as a protected path, and denied it is not written', async () => {
    await expectGitHookPatchDenied(
      s.admin,
      s.p.project,
      applyPatch('*** Add File:.git/hooks/pre-commit'),
    );
  }, 240_000);
});
