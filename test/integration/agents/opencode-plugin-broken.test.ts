import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { OpenAiChatModelServer, type ToolStep } from '../../support/model-server/openai-chat';
import type { TestDaemon } from '../../support/daemon';
import { runOpencode, writeOpencodeConfig } from '../../support/opencode-env';
import {
  installHook,
  type PushProject,
  startAgentStage,
  stopAgentStage,
} from '../../support/agent-e2e';

/**
 * What the real OpenCode (1.18.33) does when Gatehouse's plugin fails to load (here a syntax
 * error in the installed file): it goes on without it, saying nothing on stderr, so the plugin
 * cannot fail closed by itself. OpenCode's own permissions can: at `ask`, `opencode run`
 * refuses the call itself. docs/agents/opencode.md says both plainly.
 */
describe('the real OpenCode with a broken Gatehouse plugin', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: OpenAiChatModelServer;
  let p: PushProject;

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => OpenAiChatModelServer.start());
    admin = await d.admin();
    await installHook(d, p, ['opencode', '--install', '--project', p.project]);
    appendFileSync(
      join(p.project, '.opencode', 'plugin', 'gatehouse.js'),
      '\nexport const x = (;\n',
    );
  });

  afterAll(() => stopAgentStage(admin, model, d, p));

  const push: ToolStep = { name: 'bash', input: { command: 'git push origin main' } };

  function opencode() {
    model.script([push]);
    return runOpencode(d.env, p.dir, p.project, ['--print-logs']);
  }

  it('with OpenCode’s permissions at allow the push runs unguarded: nothing is filed', async () => {
    writeOpencodeConfig(p.project, model.url);
    const head = p.commit('plugin broken, permissions allow');
    const run = await opencode();
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(p.remoteHead()).toBe(head);
    expect((await admin.call('pending.list', {})).requests).toEqual([]);
  }, 180_000);

  it('with bash at ask, `opencode run` refuses the push itself: it never lands', async () => {
    writeOpencodeConfig(p.project, model.url, ['bash']);
    const before = p.remoteHead();
    p.commit('plugin broken, bash at ask');
    const run = await opencode();
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(run.stderr).toMatch(
      /permission requested: bash \(git push origin main\); auto-rejecting/,
    );
    expect(p.remoteHead()).toBe(before);
  }, 180_000);
});
