import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { GeminiModelServer } from '../../support/model-server/gemini';
import {
  type AgentStage,
  closeAgentStage,
  denyGatePolicyEditUnderEditRule,
  installHook,
  openAgentStage,
} from '../../support/agent-e2e';
import { runGeminiPrompt } from '../../support/gemini-env';

/**
 * The real Gemini CLI with its system settings moved by GEMINI_CLI_SYSTEM_SETTINGS_PATH, as an
 * administrator may set it: they override the user's and the project's settings, hooks
 * included (`hooksConfig.enabled`), and the protected table knew them only at
 * `/etc/gemini-cli/settings.json`. The hook tells the daemon the agent's config paths (the
 * gate's `configHomes`), and an edit of the file asks, critical, under a person's broad rule.
 */
describe('the real Gemini CLI with GEMINI_CLI_SYSTEM_SETTINGS_PATH set', () => {
  let s: AgentStage<GeminiModelServer>;
  let systemSettings: string;
  const hooksOn = '{"hooksConfig":{"enabled":true}}\n';

  beforeAll(async () => {
    s = await openAgentStage(() => GeminiModelServer.start());
    mkdirSync(join(s.p.home, '.gemini'));
    writeFileSync(
      join(s.p.home, '.gemini', 'settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
    );
    await installHook(s, ['gemini', '--install']);
    mkdirSync(join(s.p.home, 'admin'));
    systemSettings = join(s.p.home, 'admin', 'gemini-system.json');
    writeFileSync(systemSettings, hooksOn);
  });

  afterAll(() => closeAgentStage(s));

  it('switching hooks off in the system settings asks, critical, under a rule allowing edits', async () => {
    const command = `sed -i 's/true/false/' ${systemSettings}`;
    // Run, every later Gemini CLI session starts without the hook.
    const edit = {
      command,
      file: systemSettings,
      contents: hooksOn,
      editedMessage: 'the system settings were edited',
    };
    await denyGatePolicyEditUnderEditRule(s.admin, edit, () => {
      s.model.script([{ name: 'run_shell_command', input: { command } }]);
      const env = { ...s.daemon.env, GEMINI_CLI_SYSTEM_SETTINGS_PATH: systemSettings };
      return runGeminiPrompt(env, s.p.home, s.model.url, s.p.project);
    });
  }, 150_000);
});
