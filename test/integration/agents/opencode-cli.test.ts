import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { OpenAiChatModelServer, type ToolStep } from '../../support/model-server/openai-chat';
import { runCli, type TestDaemon } from '../../support/daemon';
import {
  decidePush,
  installHook,
  type PushProject,
  relaunch,
  runWhilePaused,
  startAgentStage,
  stopAgentStage,
} from '../../support/agent-e2e';
import { runOpencode, writeOpencodeConfig } from '../../support/opencode-env';
import { expectEditedPush, expectPushAndEditPictures } from '../../support/agent-picture';
import { approvePushWithNote } from '../../support/agent-note';

/**
 * The real OpenCode (`opencode-ai`, pinned in test/agents/package.json; its native binary
 * ships inside the npm package) run with `opencode run` against a scripted chat completions
 * API on 127.0.0.1, with Gatehouse's plugin installed by `gatehouse hook opencode --install
 * --project DIR` and a real daemon deciding.
 */
interface ToolPart {
  type: string;
  part?: { tool?: string; state?: { status: string; error?: string; output?: string } };
}

/** The bash tool parts of an `opencode run --format json` transcript. */
const bashParts = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as ToolPart)
    .filter((e) => e.type === 'tool_use' && e.part?.tool === 'bash')
    .map((e) => e.part!.state!);

describe('the real OpenCode with the Gatehouse plugin', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: OpenAiChatModelServer;
  let p: PushProject;
  const plugin = () => join(p.project, '.opencode', 'plugin', 'gatehouse.js');

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => OpenAiChatModelServer.start());
    admin = await d.admin();
    writeOpencodeConfig(p.project, model.url);
    const installed = await installHook(d, p, ['opencode', '--install', '--project', p.project]);
    expect(installed.stdout).toMatch(/Installed the Gatehouse plugin/);
    expect(installed.stdout).toMatch(/waits up to 5 min for a person/);
    const source = readFileSync(plugin(), 'utf8');
    expect(source).toContain('GATEHOUSE_HOOK_WAIT_MS=300000 ');
    expect(source).toContain(`GATEHOUSE_SOCKET=${d.socketPath} `);
  });

  afterAll(() => stopAgentStage(admin, model, d, p));

  function opencode(steps: ToolStep[]) {
    model.script(steps);
    return runOpencode(d.env, p.dir, p.project);
  }

  const push: ToolStep = {
    name: 'bash',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it('a git push waits for a person and lands once approved', async () => {
    const run = await decidePush(admin, p, opencode([push]), 'approve');
    expect(run.code, run.stderr).toBe(0);
    expect(bashParts(run.stdout).map((s) => s.status)).toEqual(['completed']);
    const { sessions } = await admin.call('sessions.list', { agent: 'opencode' });
    expect(sessions).toHaveLength(1);
    console.log(`opencode e2e: approved push in ${run.seconds.toFixed(1)} s (first run)`);
  }, 240_000);

  it('a denied git push never lands, and OpenCode is told why', async () => {
    p.commit('second');
    const run = await decidePush(admin, p, opencode([push]), 'deny', 'not before the release');
    expect(run.code, run.stderr).toBe(0);
    const [state] = bashParts(run.stdout);
    expect(state?.status).toBe('error');
    expect(state?.error).toContain('not before the release');
    expect(model.toolResults()[0]?.text).toContain('not before the release');
    console.log(`opencode e2e: denied push in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('the request carries what the call changes: the commits a push sends, the diff a write makes', async () => {
    await expectPushAndEditPictures(admin, p, {
      push: () => opencode([push]),
      edit: () =>
        opencode([
          {
            name: 'write',
            input: { filePath: join(p.project, 'notes.txt'), content: 'picture edit\n' },
          },
        ]),
      editAction: 'write_file',
    });
  }, 240_000);

  it('an edited push is what OpenCode runs: `git push origin main` approved as `git push origin feature` (output.args replaced)', async () => {
    const run = await expectEditedPush(admin, p, () => opencode([push]));
    expect(run.code, run.stderr).toBe(0);
    expect(bashParts(run.stdout).map((s) => s.status)).toEqual(['completed']);
  }, 240_000);

  it("an approval's note reaches the model in the tool's output (tool.execute.after)", async () => {
    const note = 'push this once, then open the pull request';
    await approvePushWithNote(admin, p, () => opencode([push]), note);
    expect(model.toolResults()[0]?.text).toContain(note);
  }, 240_000);

  it('a paused agent is stopped: the push never runs, the session is aborted, nothing is filed', async () => {
    const run = await runWhilePaused(admin, p, 'opencode', () => opencode([push, push]));
    // The plugin aborted the session: the run ends with OpenCode's MessageAbortedError,
    // the call never completed and the model never got a result to go on from.
    expect(run.stdout).toContain('"MessageAbortedError"');
    expect(bashParts(run.stdout).filter((s) => s.status === 'completed')).toEqual([]);
    expect(model.toolResults()).toEqual([]);
    console.log(`opencode e2e: paused agent stopped in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('with Gatehouse down the push is denied (fail closed), with how to start it', async () => {
    const before = p.remoteHead();
    p.commit('gatehouse down');
    await d.signal('SIGTERM');
    try {
      const run = await opencode([push]);
      expect(p.remoteHead()).toBe(before);
      expect(bashParts(run.stdout)[0]?.error).toContain('Start Gatehouse');
      console.log(`opencode e2e: push with Gatehouse down refused in ${run.seconds.toFixed(1)} s`);
    } finally {
      admin = await relaunch(d, admin);
    }
  }, 120_000);

  it('--uninstall removes the plugin file', async () => {
    const args = ['hook', 'opencode', '--uninstall', '--project', p.project];
    const r = await runCli({ ...d.env, HOME: p.home }, args);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(plugin())).toBe(false);
  });
});
