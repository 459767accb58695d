import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiChatModelServer, type ToolStep } from '../../support/model-server/openai-chat';
import { runCli } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
  decidePush,
  installHook,
  openAgentStage,
  relaunch,
  runWhilePaused,
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
  let s: AgentStage<OpenAiChatModelServer>;
  const plugin = () => join(s.p.project, '.opencode', 'plugin', 'gatehouse.js');

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    writeOpencodeConfig(s.p.project, s.model.url);
    const installed = await installHook(s, ['opencode', '--install', '--project', s.p.project]);
    expect(installed.stdout).toMatch(/Installed the Gatehouse plugin/);
    expect(installed.stdout).toMatch(/waits up to 5 min for a person/);
    const source = readFileSync(plugin(), 'utf8');
    expect(source).toContain('GATEHOUSE_HOOK_WAIT_MS=300000 ');
    expect(source).toContain(`GATEHOUSE_SOCKET=${s.daemon.socketPath} `);
  });

  afterAll(() => closeAgentStage(s));

  function opencode(steps: ToolStep[]) {
    s.model.script(steps);
    return runOpencode(s.daemon.env, s.p.dir, s.p.project);
  }

  const push: ToolStep = {
    name: 'bash',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it('a git push waits for a person and lands once approved', async () => {
    const run = await decidePush(s.admin, s.p, opencode([push]), 'approve');
    expect(run.code, run.stderr).toBe(0);
    expect(bashParts(run.stdout).map((s) => s.status)).toEqual(['completed']);
    const { sessions } = await s.admin.call('sessions.list', { agent: 'opencode' });
    expect(sessions).toHaveLength(1);
    console.log(`opencode e2e: approved push in ${run.seconds.toFixed(1)} s (first run)`);
  }, 240_000);

  it('a denied git push never lands, and OpenCode is told why', async () => {
    s.p.commit('second');
    const run = await decidePush(s.admin, s.p, opencode([push]), 'deny', 'not before the release');
    expect(run.code, run.stderr).toBe(0);
    const [state] = bashParts(run.stdout);
    expect(state?.status).toBe('error');
    expect(state?.error).toContain('not before the release');
    expect(s.model.toolResults()[0]?.text).toContain('not before the release');
    console.log(`opencode e2e: denied push in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('the request carries what the call changes: the commits a push sends, the diff a write makes', async () => {
    await expectPushAndEditPictures(s.admin, s.p, {
      push: () => opencode([push]),
      edit: () =>
        opencode([
          {
            name: 'write',
            input: { filePath: join(s.p.project, 'notes.txt'), content: 'picture edit\n' },
          },
        ]),
      editAction: 'write_file',
    });
  }, 240_000);

  it('an edited push is what OpenCode runs: `git push origin main` approved as `git push origin feature` (output.args replaced)', async () => {
    const run = await expectEditedPush(s.admin, s.p, () => opencode([push]));
    expect(run.code, run.stderr).toBe(0);
    expect(bashParts(run.stdout).map((s) => s.status)).toEqual(['completed']);
  }, 240_000);

  it("an approval's note reaches the model in the tool's output (tool.execute.after)", async () => {
    const note = 'push this once, then open the pull request';
    await approvePushWithNote(s.admin, s.p, () => opencode([push]), note);
    expect(s.model.toolResults()[0]?.text).toContain(note);
  }, 240_000);

  it('a paused agent is stopped: the push never runs, the session is aborted, nothing is filed', async () => {
    const run = await runWhilePaused(s.admin, s.p, 'opencode', () => opencode([push, push]));
    // The plugin aborted the session: the run ends with OpenCode's MessageAbortedError,
    // the call never completed and the model never got a result to go on from.
    expect(run.stdout).toContain('"MessageAbortedError"');
    expect(bashParts(run.stdout).filter((s) => s.status === 'completed')).toEqual([]);
    expect(s.model.toolResults()).toEqual([]);
    console.log(`opencode e2e: paused agent stopped in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('with Gatehouse down the push is denied (fail closed), with how to start it', async () => {
    const before = s.p.remoteHead();
    s.p.commit('gatehouse down');
    await s.daemon.signal('SIGTERM');
    try {
      const run = await opencode([push]);
      expect(s.p.remoteHead()).toBe(before);
      expect(bashParts(run.stdout)[0]?.error).toContain('Start Gatehouse');
      console.log(`opencode e2e: push with Gatehouse down refused in ${run.seconds.toFixed(1)} s`);
    } finally {
      s.admin = await relaunch(s.daemon, s.admin);
    }
  }, 120_000);

  it('--uninstall removes the plugin file', async () => {
    const args = ['hook', 'opencode', '--uninstall', '--project', s.p.project];
    const r = await runCli({ ...s.daemon.env, HOME: s.p.home }, args);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(plugin())).toBe(false);
  });
});
