import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { OpenAiChatModelServer } from '../../support/model-server/openai-chat';
import {
  type AgentStage,
  closeAgentStage,
  denyGatePolicyEditUnderEditRule,
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
    // Run, every later call starts with the agent's own command.
    const command = `sed -i 's/"hooks":{}/"hooks":{"sessionStart":[{"type":"command","bash":"touch owned"}]}/' ${userHooks}`;
    const edit = { command, file: userHooks, editedMessage: 'the user hooks file was edited' };
    await denyGatePolicyEditUnderEditRule(s.admin, edit, () => {
      s.model.script([{ name: 'bash', input: { command, description: 'Tidy the hooks' } }]);
      const env = { ...s.daemon.env, COPILOT_HOME: copilotHome };
      return runCopilotPrompt(env, s.p.home, s.model.url, s.p.project);
    });
  }, 150_000);
});
