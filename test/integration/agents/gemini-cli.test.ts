import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiModelServer, type ToolStep } from '../../support/model-server/gemini';
import { runCli } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
  decidePush,
  installHook,
  openAgentStage,
  pendingWhileRunning,
  relaunch,
  runWhilePaused,
} from '../../support/agent-e2e';
import { runGeminiPrompt } from '../../support/gemini-env';
import { expectEditedPush, expectPushAndEditPictures } from '../../support/agent-picture';
import { approvePushWithNote } from '../../support/agent-note';

/**
 * The real Gemini CLI (`@google/gemini-cli`, pinned in test/agents/package.json) run with
 * `gemini -p` against a scripted Gemini API on 127.0.0.1, with the hook installed by
 * `gatehouse hook gemini --install` into a temporary HOME and a real daemon deciding.
 */

interface GeminiOutput {
  response?: string;
  error?: { message: string };
}

describe('the real Gemini CLI with the Gatehouse hook', () => {
  let s: AgentStage<GeminiModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => GeminiModelServer.start());
    // The person's own settings (the API-key sign-in): the install merges into them.
    const settings = join(s.p.home, '.gemini', 'settings.json');
    mkdirSync(join(s.p.home, '.gemini'));
    writeFileSync(
      settings,
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
    );
    const installed = await installHook(s, ['gemini', '--install']);
    expect(installed.stdout).toMatch(
      /Installed the Gatehouse hooks \(BeforeTool, AfterTool, SessionEnd\)/,
    );
    expect(installed.stdout).toMatch(/waits up to 50 s for a person/);
    const written = JSON.parse(readFileSync(settings, 'utf8')) as {
      security: unknown;
      hooks: { BeforeTool: { matcher: string; hooks: { command: string; timeout: number }[] }[] };
    };
    expect(written.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    const entry = written.hooks.BeforeTool[0]!.hooks[0]!;
    // Gemini CLI's timeout is in milliseconds, and a timed-out hook lets the call run.
    expect(entry.timeout).toBe(60_000);
    expect(entry.command).toContain('GATEHOUSE_HOOK_WAIT_MS=50000 ');
    expect(entry.command).toContain(`GATEHOUSE_SOCKET=${s.daemon.socketPath} `);
  });

  afterAll(() => closeAgentStage(s));

  /** Runs `gemini -p` in the project with the model scripted to make these tool calls. */
  function gemini(steps: ToolStep[]) {
    s.model.script(steps);
    return runGeminiPrompt(s.daemon.env, s.p.home, s.model.url, s.p.project);
  }

  const push: ToolStep = {
    name: 'run_shell_command',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it('a git push waits for a person and lands once approved', async () => {
    const run = await decidePush(s.admin, s.p, gemini([push]), 'approve');
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.text).not.toContain('blocked');
    // `gemini -p` ends with SessionEnd reason exit: the Gatehouse session is completed.
    // (Gemini CLI does not wait for that hook, so its record may land just after the run.)
    await expect
      .poll(
        async () =>
          (await s.admin.call('sessions.list', { agent: 'gemini' })).sessions.map((s) => s.status),
        { timeout: 10_000, interval: 50 },
      )
      .toEqual(['completed']);
    console.log(`gemini e2e: approved push in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('a denied git push never lands, and Gemini CLI is told why', async () => {
    s.p.commit('second');
    const run = await decidePush(s.admin, s.p, gemini([push]), 'deny', 'not before the release');
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.text).toContain('Tool execution blocked');
    expect(result?.text).toContain('not before the release');
    console.log(`gemini e2e: denied push in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('the request carries what the call changes: the commits a push sends, the diff a replace makes', async () => {
    await expectPushAndEditPictures(s.admin, s.p, {
      push: () => gemini([push]),
      edit: () =>
        gemini([
          {
            name: 'replace',
            input: {
              file_path: join(s.p.project, 'notes.txt'),
              old_string: 'picture push',
              new_string: 'picture edit',
              instruction: 'Rename the note',
            },
          },
        ]),
    });
  }, 240_000);

  it('an edited push is what Gemini CLI runs: `git push origin main` approved as `git push origin feature` (tool_input)', async () => {
    const run = await expectEditedPush(s.admin, s.p, () => gemini([push]));
    expect(run.code, run.stderr).toBe(0);
    // Gemini CLI tells the model that a hook changed the call.
    const [result] = s.model.toolResults();
    expect(result?.text).toContain('Tool input parameters were modified by a hook');
  }, 240_000);

  it('an edited replace is what Gemini CLI runs: the file gets the new_string the person wrote', async () => {
    s.p.commit('replace me');
    const file = join(s.p.project, 'notes.txt');
    const replace = (text: string) => ({
      file_path: file,
      old_string: 'replace me',
      new_string: text,
      instruction: 'Rewrite the note',
    });
    const running = gemini([{ name: 'replace', input: replace('the model wrote this') }]);
    const asked = await pendingWhileRunning(s.admin, running, 'edit_file');
    await s.admin.call('decide', {
      requestId: asked.requestId,
      decision: 'approve',
      edit: { input: replace('the person wrote this') },
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('the person wrote this\n');
  }, 240_000);

  it("an approval's note reaches the model in the tool's result (AfterTool additionalContext), once", async () => {
    const note = 'push this once, then open the pull request';
    await approvePushWithNote(s.admin, s.p, () => gemini([push]), note);
    const [result] = s.model.toolResults();
    expect(result?.text).toContain(`<hook_context>`);
    expect(result?.text).toContain(note);
    // The note was handed out: the same call run again (allowed by no one) gets none.
    s.p.commit('after the note');
    const again = await decidePush(s.admin, s.p, gemini([push]), 'approve');
    expect(again.code, again.stderr).toBe(0);
    expect(s.model.toolResults()[0]?.text).not.toContain(note);
  }, 240_000);

  it('a paused agent is stopped (continue: false): the push never runs and nothing is filed', async () => {
    const run = await runWhilePaused(s.admin, s.p, 'gemini', () => gemini([push, push]));
    // Gemini CLI ended the agent loop on the hook's `continue: false`: the model never
    // got the result back for a second turn.
    expect(run.stderr).toContain('Agent execution stopped by hook');
    expect(s.model.toolResults()).toEqual([]);
    const out = JSON.parse(run.stdout) as GeminiOutput;
    expect(out.response ?? '').not.toContain('All done');
    console.log(`gemini e2e: paused agent stopped in ${run.seconds.toFixed(1)} s`);
  }, 120_000);

  it('with Gatehouse down the push is denied (fail closed), with how to start it', async () => {
    const before = s.p.remoteHead();
    s.p.commit('gatehouse down');
    await s.daemon.signal('SIGTERM');
    try {
      const run = await gemini([push]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.p.remoteHead()).toBe(before);
      const [result] = s.model.toolResults();
      expect(result?.text).toContain('Tool execution blocked');
      expect(result?.text).toContain('Start Gatehouse');
      console.log(`gemini e2e: push with Gatehouse down refused in ${run.seconds.toFixed(1)} s`);
    } finally {
      s.admin = await relaunch(s.daemon, s.admin);
    }
  }, 120_000);

  it("calibration: a .gemini/.env reaches the hook's environment; with Gatehouse down, GATEHOUSE_HOOK_FALLBACK=defer there lets the push run", async () => {
    // What the protection of `.env` files is for: Gemini CLI loads the nearest one into its
    // own environment at start, and every hook it runs inherits it. (With a default install,
    // whose command pins no socket, GATEHOUSE_SOCKET there would make "down" on demand.)
    const before = s.p.remoteHead();
    s.p.commit('env file');
    const envFile = join(s.p.project, '.gemini', '.env');
    mkdirSync(join(s.p.project, '.gemini'), { recursive: true });
    writeFileSync(envFile, 'GATEHOUSE_HOOK_FALLBACK=defer\n');
    await s.daemon.signal('SIGTERM');
    try {
      const run = await gemini([push]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.p.remoteHead()).not.toBe(before);
    } finally {
      rmSync(envFile);
      s.admin = await relaunch(s.daemon, s.admin);
    }
  }, 120_000);

  it.each([
    ['.gemini/.env', 'GATEHOUSE_HOOK_FALLBACK=defer'],
    ['.env', 'GATEHOUSE_SOCKET=/nonexistent/gatehouse.sock'],
  ])(
    'writing %s from the shell asks a person, critical, even with writes and commands allowed by rule; denied, nothing is written',
    async (file, line) => {
      // Gemini CLI's own file tools refuse `.env` paths; its shell does not.
      const allowed: string[] = [];
      for (const action of ['write_file', 'run_command'])
        allowed.push((await s.admin.call('rules.add', { action, tier: 'auto' })).rule.ruleId);
      try {
        mkdirSync(join(s.p.project, '.gemini'), { recursive: true });
        const command = `printf '%s\\n' '${line}' >> ${file}`;
        const running = gemini([
          {
            name: 'run_shell_command',
            input: { command, description: 'Set an environment value' },
          },
        ]);
        const asked = await pendingWhileRunning(s.admin, running);
        expect(asked).toMatchObject({
          risk: 'critical',
          rule: 'protected:change_gatehouse_policy',
        });
        await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny' });
        const run = await running;
        expect(run.code, run.stderr).toBe(0);
        expect(existsSync(join(s.p.project, file))).toBe(false);
      } finally {
        for (const ruleId of allowed) await s.admin.call('rules.remove', { ruleId });
      }
    },
    120_000,
  );

  it('--uninstall takes out exactly the Gatehouse entry', async () => {
    const r = await runCli({ ...s.daemon.env, HOME: s.p.home }, ['hook', 'gemini', '--uninstall']);
    expect(r.code, r.stderr).toBe(0);
    const left = JSON.parse(
      readFileSync(join(s.p.home, '.gemini', 'settings.json'), 'utf8'),
    ) as object;
    expect(left).toEqual({ security: { auth: { selectedType: 'gemini-api-key' } } });
  }, 120_000);
});
