import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiChatModelServer, type ToolStep } from '../../support/model-server/openai-chat';
import { runOpencode, writeOpencodeConfig } from '../../support/opencode-env';
import {
  type AgentStage,
  closeAgentStage,
  installHook,
  openAgentStage,
} from '../../support/agent-e2e';

/**
 * What the real OpenCode (1.18.33) does when Gatehouse's plugin fails to load (here a syntax
 * error in the installed file): it goes on without it, saying nothing on stderr, so the plugin
 * cannot fail closed by itself. OpenCode's own permissions can: at `ask`, `opencode run`
 * refuses the call itself. docs/agents/opencode.md says both plainly.
 */
describe('the real OpenCode with a broken Gatehouse plugin', () => {
  let s: AgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    await installHook(s, ['opencode', '--install', '--project', s.p.project]);
    appendFileSync(
      join(s.p.project, '.opencode', 'plugin', 'gatehouse.js'),
      '\nexport const x = (;\n',
    );
  });

  afterAll(() => closeAgentStage(s));

  const push: ToolStep = { name: 'bash', input: { command: 'git push origin main' } };

  function opencode() {
    s.model.script([push]);
    return runOpencode(s.daemon.env, s.p.dir, s.p.project, ['--print-logs']);
  }

  it('with OpenCode’s permissions at allow the push runs unguarded: nothing is filed', async () => {
    writeOpencodeConfig(s.p.project, s.model.url);
    const head = s.p.commit('plugin broken, permissions allow');
    const run = await opencode();
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(s.p.remoteHead()).toBe(head);
    expect((await s.admin.call('pending.list', {})).requests).toEqual([]);
  }, 180_000);

  it('with bash at ask, `opencode run` refuses the push itself: it never lands', async () => {
    writeOpencodeConfig(s.p.project, s.model.url, ['bash']);
    const before = s.p.remoteHead();
    s.p.commit('plugin broken, bash at ask');
    const run = await opencode();
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(run.stderr).toMatch(
      /permission requested: bash \(git push origin main\); auto-rejecting/,
    );
    expect(s.p.remoteHead()).toBe(before);
  }, 180_000);
});
