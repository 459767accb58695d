import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponsesModelServer } from '../../support/model-server/openai-responses';
import { waitForPending } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
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
    const { rule } = await s.admin.call('rules.add', { action: 'edit_file', tier: 'auto' });
    const before = readFileSync(hooksFile, 'utf8');
    const command = `sed -i 's/PreToolUse/Unused/' ${hooksFile}`;
    try {
      s.model.script([{ name: 'exec_command', arguments: { cmd: command } }]);
      const running = runCodexExec(s.daemon.env, s.p.home, codexHome, s.p.project);
      const first = await Promise.race([
        running.then(() => undefined),
        waitForPending(s.admin, (r) => r.command === command, 110_000),
      ]);
      if (first) {
        expect(first).toMatchObject({
          rule: 'protected:change_gatehouse_policy',
          risk: 'critical',
        });
        await s.admin.call('decide', { requestId: first.requestId, decision: 'deny' });
      }
      const run = await running;
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      // Run, the edit leaves every later Codex session without the hook.
      expect(readFileSync(hooksFile, 'utf8'), 'the hooks file was edited').toBe(before);
      expect(first, 'the edit asked').toBeDefined();
    } finally {
      await s.admin.call('rules.remove', { ruleId: rule.ruleId });
    }
  });
});
