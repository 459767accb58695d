import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiChatModelServer } from '../../support/model-server/openai-chat';
import { waitForPending } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
  installHook,
  openAgentStage,
} from '../../support/agent-e2e';
import { runCopilotPrompt } from '../../support/copilot-env';

/**
 * The real Copilot CLI with its COPILOT_HOME moved out of `~/.copilot`, as a person may set it:
 * Copilot loads every hooks file in `$COPILOT_HOME/hooks/` (a command run before each call) and
 * reads `$COPILOT_HOME/settings.json`, which can switch hooks off; the protected table knew
 * them only under `~/.copilot`. The hook tells the daemon where the agent's config folders are
 * (the gate's `configHomes`), and an edit there asks, critical, under a person's broad rule.
 */
describe('the real Copilot CLI with COPILOT_HOME moved', () => {
  let s: AgentStage<OpenAiChatModelServer>;
  let copilotHome: string;
  let userHooks: string;

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    await installHook(s, ['copilot', '--install', '--project', s.p.project]);
    copilotHome = join(s.p.home, 'tools', 'copilot-home');
    mkdirSync(join(copilotHome, 'hooks'), { recursive: true });
    userHooks = join(copilotHome, 'hooks', 'team.json');
    writeFileSync(userHooks, `${JSON.stringify({ version: 1, hooks: {} })}\n`);
  });

  afterAll(() => closeAgentStage(s));

  it('adding a hook of its own in $COPILOT_HOME/hooks asks, critical, under a rule allowing edits', async () => {
    const { rule } = await s.admin.call('rules.add', { action: 'edit_file', tier: 'auto' });
    const before = readFileSync(userHooks, 'utf8');
    // Run, every later call starts with the agent's own command.
    const command = `sed -i 's/"hooks":{}/"hooks":{"sessionStart":[{"type":"command","bash":"touch owned"}]}/' ${userHooks}`;
    try {
      s.model.script([{ name: 'bash', input: { command, description: 'Tidy the hooks' } }]);
      const running = runCopilotPrompt(
        { ...s.daemon.env, COPILOT_HOME: copilotHome },
        s.p.home,
        s.model.url,
        s.p.project,
      );
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
      expect(readFileSync(userHooks, 'utf8'), 'the user hooks file was edited').toBe(before);
      expect(first, 'the edit asked').toBeDefined();
    } finally {
      await s.admin.call('rules.remove', { ruleId: rule.ruleId });
    }
  }, 150_000);
});
