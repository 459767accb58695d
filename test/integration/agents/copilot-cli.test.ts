import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  pendingWhileRunning,
  runWhilePaused,
} from '../../support/agent-e2e';
import { expectEditedPush, expectPushAndEditPictures } from '../../support/agent-picture';
import { approvePushWithNote } from '../../support/agent-note';
import { runCopilotPrompt } from '../../support/copilot-env';

/**
 * The real GitHub Copilot CLI (`@github/copilot`, pinned in test/agents/package.json; its
 * native binary ships inside the npm package) run offline with `copilot -p` against a
 * scripted OpenAI-compatible chat completions API on 127.0.0.1, with the hook installed by
 * `gatehouse hook copilot --install --project DIR` and a real daemon deciding.
 */
describe('the real Copilot CLI with the Gatehouse hook', () => {
  let s: AgentStage<OpenAiChatModelServer>;
  const hooksFile = () => join(s.p.project, '.github', 'hooks', 'gatehouse.json');

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    const installed = await installHook(s, ['copilot', '--install', '--project', s.p.project]);
    expect(installed.stdout).toMatch(/Installed the Gatehouse hooks \(preToolUse, sessionEnd\)/);
    expect(installed.stdout).toMatch(/waits up to 25 s for a person/);
    expect(installed.stdout).toMatch(/own hook timeout is 30 s/);
    const written = JSON.parse(readFileSync(hooksFile(), 'utf8')) as {
      version: number;
      hooks: { preToolUse: { type: string; bash: string; timeoutSec: number }[] };
    };
    expect(written.version).toBe(1);
    const entry = written.hooks.preToolUse[0]!;
    expect(entry.timeoutSec).toBe(30);
    expect(entry.bash).toContain('GATEHOUSE_HOOK_WAIT_MS=25000 ');
    expect(entry.bash).toContain(`GATEHOUSE_SOCKET=${s.daemon.socketPath} `);
  });

  afterAll(() => closeAgentStage(s));

  /** Runs `copilot -p` in the project with the model scripted to make these tool calls. */
  function copilot(steps: ToolStep[]) {
    s.model.script(steps);
    return runCopilotPrompt(s.daemon.env, s.p.home, s.model.url, s.p.project);
  }

  const push: ToolStep = {
    name: 'bash',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it('a git push waits for a person and lands once approved', async () => {
    const run = await decidePush(s.admin, s.p, copilot([push]), 'approve');
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.text).not.toContain('Denied');
    // `copilot -p` ends its turn with sessionEnd reason complete: the session is completed.
    const { sessions } = await s.admin.call('sessions.list', { agent: 'copilot' });
    expect(sessions.map((s) => s.status)).toEqual(['completed']);
    console.log(`copilot e2e: approved push in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('a denied git push never lands, and Copilot CLI is told why', async () => {
    s.p.commit('second');
    const run = await decidePush(s.admin, s.p, copilot([push]), 'deny', 'not before the release');
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.text).toContain('Denied by preToolUse hook');
    expect(result?.text).toContain('not before the release');
    console.log(`copilot e2e: denied push in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('the request carries what the call changes: the commits a push sends, the diff an edit makes', async () => {
    await expectPushAndEditPictures(s.admin, s.p, {
      push: () => copilot([push]),
      edit: () =>
        copilot([
          {
            name: 'edit',
            input: {
              path: join(s.p.project, 'notes.txt'),
              old_str: 'picture push',
              new_str: 'picture edit',
            },
          },
        ]),
    });
  }, 240_000);

  it('an edited push is what Copilot CLI runs: `git push origin main` approved as `git push origin feature` (modifiedArgs)', async () => {
    await expectEditedPush(s.admin, s.p, () => copilot([push]));
  }, 240_000);

  it("an approval's note reaches the model (additionalContext beside the allow)", async () => {
    const note = 'push this once, then open the pull request';
    await approvePushWithNote(s.admin, s.p, () => copilot([push]), note);
    expect(s.model.allRequestText()).toContain(note);
  }, 240_000);

  it('a file write holding a key, edited to another path on its masked input: Copilot CLI writes the key there', async () => {
    const KEY = 'sk-proj-COPILOTKEYCOPILOTKEY1234';
    const asked = join(s.p.project, 'settings.txt');
    const moved = join(s.p.project, 'settings-local.txt');
    const content = `OPENAI_API_KEY=${KEY}\nMODE=dev\n`;
    const running = copilot([{ name: 'create', input: { path: asked, file_text: content } }]);
    const filed = await pendingWhileRunning(s.admin, running, 'write_file');
    const kept = (await s.admin.call('request.get', { requestId: filed.requestId })).request;
    expect(JSON.stringify(kept)).not.toContain('COPILOTKEY');
    const shown = kept.context?.toolInput as { path: string; file_text: string };
    expect(shown.file_text).toBe('OPENAI_API_KEY=sk-p…[masked]\nMODE=dev\n');
    await s.admin.call('decide', {
      requestId: filed.requestId,
      decision: 'approve',
      edit: { input: { path: moved, file_text: shown.file_text.replace('dev', 'prod') } },
    });
    const run = await running;
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(readFileSync(moved, 'utf8')).toBe(content.replace('dev', 'prod'));
    expect(existsSync(asked)).toBe(false);
  }, 240_000);

  it('a paused agent gets every call refused with the reason; nothing is filed', async () => {
    const run = await runWhilePaused(s.admin, s.p, 'copilot', () => copilot([push]));
    const [result] = s.model.toolResults();
    expect(result?.text).toContain('Gatehouse says stop');
    console.log(`copilot e2e: paused agent refused in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('--uninstall takes out the Gatehouse entry and keeps the hooks of others', async () => {
    // Someone else's hook in the same file stays.
    const file = JSON.parse(readFileSync(hooksFile(), 'utf8')) as {
      hooks: Record<string, unknown[]>;
    };
    file.hooks.sessionStart = [{ type: 'command', bash: 'echo hi' }];
    writeFileSync(hooksFile(), JSON.stringify(file));
    const r = await runCli({ ...s.daemon.env, HOME: s.p.home }, [
      'hook',
      'copilot',
      '--uninstall',
      '--project',
      s.p.project,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(hooksFile(), 'utf8'))).toEqual({
      version: 1,
      hooks: { sessionStart: [{ type: 'command', bash: 'echo hi' }] },
    });
  }, 120_000);

  it('--uninstall removes the file when only the Gatehouse entry was in it', async () => {
    const env = { ...s.daemon.env, HOME: s.p.home };
    const args = ['hook', 'copilot', '--project', s.p.project];
    rmSync(hooksFile());
    expect((await runCli(env, [...args, '--install'])).code).toBe(0);
    expect((await runCli(env, [...args, '--uninstall'])).code).toBe(0);
    expect(existsSync(hooksFile())).toBe(false);
  }, 120_000);
});
