import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponsesModelServer } from '../../support/model-server/openai-responses';
import {
  type AgentStage,
  closeAgentStage,
  denyGatePolicyEditUnderEditRule,
  installHook,
  openAgentStage,
} from '../../support/agent-e2e';
import { codexHomeFor, runCodexExec } from '../../support/codex-env';

/**
 * The real Codex CLI with its CODEX_HOME moved out of `~/.codex`, as a person may set it:
 * `gatehouse hook codex --install` puts the hook in `$CODEX_HOME/hooks.json`, which the
 * protected table knew only as `~/.codex/hooks.json`. The hook tells the daemon where the
 * agent's config folders are (the gate's `configHomes`), and an edit of the moved hooks file
 * asks, critical, even under a person's broad rule allowing edits.
 */
describe('the real Codex CLI with CODEX_HOME moved', () => {
  let s: AgentStage<ResponsesModelServer>;
  let codexHome: string;
  let hooksFile: string;

  beforeAll(async () => {
    s = await openAgentStage(() => ResponsesModelServer.start());
    codexHome = codexHomeFor(s.p.home, s.model.url, 'gpt-5', 'codex-home');
    await installHook(s, ['codex', '--install'], { CODEX_HOME: codexHome });
    hooksFile = join(codexHome, 'hooks.json');
    expect(readFileSync(hooksFile, 'utf8')).toContain('PreToolUse');
  });

  afterAll(() => closeAgentStage(s));

  it('switching the hook off in $CODEX_HOME/hooks.json asks, critical, under a rule allowing edits', async () => {
    const command = `sed -i 's/PreToolUse/Unused/' ${hooksFile}`;
    // Run, the edit leaves every later Codex session without the hook.
    const edit = { command, file: hooksFile, editedMessage: 'the hooks file was edited' };
    await denyGatePolicyEditUnderEditRule(s.admin, edit, () => {
      s.model.script([{ name: 'exec_command', arguments: { cmd: command } }]);
      return runCodexExec(s.daemon.env, s.p.home, codexHome, s.p.project);
    });
  });
});
