import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ResponsesModelServer } from '../../support/model-server/openai-responses';
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
import { codexHomeFor, runCodexExec } from '../../support/codex-env';

/**
 * The real Codex CLI applies a patch whose file header is indented (its parser trims the
 * header line), and the person's rules let every edit and write pass. Gatehouse must still
 * see the file: Codex adding `.git/hooks/pre-commit` would run code at the next commit, and
 * before patch-envelope.ts Gatehouse read no file in such a header, so the rule let the patch
 * through as an edit of nothing.
 */
describe('the real Codex CLI applying a patch with an indented file header', () => {
  let s: AgentStage<ResponsesModelServer>;
  let patchHome: string;

  beforeAll(async () => {
    s = await openAgentStage(() => ResponsesModelServer.start());
    const codexHome = codexHomeFor(s.p.home, s.model.url);
    await installHook(s, ['codex', '--install'], { CODEX_HOME: codexHome });
    // apply_patch is offered only to a model Codex knows to take it (its freeform tool).
    patchHome = codexHomeFor(join(s.p.dir, 'patch-home'), s.model.url, 'gpt-5.5');
    copyFileSync(join(codexHome, 'hooks.json'), join(patchHome, 'hooks.json'));
    for (const action of ['edit_file', 'write_file'])
      await s.admin.call('rules.add', { action, tier: 'auto' });
  });

  afterAll(() => closeAgentStage(s));

  const applyPatch = (header: string) => {
    s.model.script([
      {
        name: 'apply_patch',
        arguments: {},
        custom: addFilePatch(header),
      },
    ]);
    return runCodexExec(s.daemon.env, s.p.home, patchHome, s.p.project, []);
  };

  it('calibration: Codex applies a file whose header is indented, and the rule lets it pass', async () => {
    await expectPatchApplied(
      s.admin,
      join(s.p.project, 'made.txt'),
      applyPatch(' *** Add File: made.txt'),
    );
  }, 240_000);

  it('a git hook added under an indented header asks as a protected path, and denied it is not written', async () => {
    await expectGitHookPatchDenied(
      s.admin,
      s.p.project,
      applyPatch(' *** Add File: .git/hooks/pre-commit'),
    );
  }, 240_000);
});
