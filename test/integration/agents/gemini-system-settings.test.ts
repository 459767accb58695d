import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiModelServer } from '../../support/model-server/gemini';
import { waitForPending } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
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
    const { rule } = await s.admin.call('rules.add', { action: 'edit_file', tier: 'auto' });
    const command = `sed -i 's/true/false/' ${systemSettings}`;
    try {
      s.model.script([{ name: 'run_shell_command', input: { command } }]);
      const running = runGeminiPrompt(
        { ...s.daemon.env, GEMINI_CLI_SYSTEM_SETTINGS_PATH: systemSettings },
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
      // Run, every later Gemini CLI session starts without the hook.
      expect(readFileSync(systemSettings, 'utf8'), 'the system settings were edited').toBe(hooksOn);
      expect(first, 'the edit asked').toBeDefined();
    } finally {
      await s.admin.call('rules.remove', { ruleId: rule.ruleId });
    }
  }, 150_000);
});
