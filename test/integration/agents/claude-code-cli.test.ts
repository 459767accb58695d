import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicModelServer, type ToolStep } from '../../support/model-server/anthropic';
import { waitForPending } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
  decidePush,
  installHook,
  openAgentStage,
  pendingWhileRunning,
  runWhilePaused,
} from '../../support/agent-e2e';
import { claudeRunResult, runClaude } from '../../support/claude-cli';
import { expectEditedPush, expectPushAndEditPictures } from '../../support/agent-picture';
import { approvePushWithNote } from '../../support/agent-note';

/**
 * The real Claude Code CLI (`@anthropic-ai/claude-code`, pinned in test/agents/package.json; its
 * native binary ships inside the npm package) run with `claude -p` against a scripted model
 * server on 127.0.0.1, with the hook installed by `gatehouse hook claude-code --install` into
 * a temporary HOME and a real daemon deciding.
 */
describe('the real Claude Code CLI with the Gatehouse hook', () => {
  let s: AgentStage<AnthropicModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => AnthropicModelServer.start());
    // --no-sandbox: these tests are of the hook itself; with the sandbox settings Claude Code
    // refuses Gatehouse's files on its own first (claude-code-sandbox.test.ts).
    await installHook(s, ['claude-code', '--install', '--no-sandbox']);
  });

  afterAll(() => closeAgentStage(s));

  /** Runs `claude -p` in the project with the model scripted to make these tool calls. */
  function claude(steps: ToolStep[], mode = 'bypassPermissions') {
    const { daemon, model, p } = s;
    model.script(steps);
    return runClaude({ cwd: p.project, home: p.home, modelUrl: model.url, env: daemon.env, mode });
  }

  const push: ToolStep = {
    name: 'Bash',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it('a git push lands only after a person approves it', async () => {
    // Claude Code waits on the hook: nothing reaches the remote before the approval.
    const run = await decidePush(s.admin, s.p, claude([push]), 'approve');
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result).toMatchObject({ isError: false });
    // `claude -p` ends with SessionEnd reason "other": the run is over, the session completed.
    const { sessions } = await s.admin.call('sessions.list', { agent: 'claude-code' });
    expect(sessions.map((x) => x.status)).toEqual(['completed']);
    console.log(`claude-code e2e: approved push in ${run.seconds.toFixed(1)} s`);
  });

  it('a denied git push never lands, and Claude Code is told why', async () => {
    s.p.commit('second');
    const run = await decidePush(s.admin, s.p, claude([push]), 'deny', 'not before the release');
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain('not before the release');
    console.log(`claude-code e2e: denied push in ${run.seconds.toFixed(1)} s`);
  });

  it('the request carries what the call changes: the commits a push sends, the diff an Edit makes', async () => {
    await expectPushAndEditPictures(s.admin, s.p, {
      push: () => claude([push]),
      edit: () =>
        claude([
          {
            name: 'Edit',
            input: {
              file_path: join(s.p.project, 'notes.txt'),
              old_string: 'picture push',
              new_string: 'picture edit',
            },
          },
        ]),
    });
  }, 240_000);

  it("a hub token in Claude Code's environment never reaches the model: env and echo of it ask", async () => {
    const token = 'ghp-hub-token-e2e-5d1f0c7a9b3e';
    const bash = (command: string): ToolStep => ({
      name: 'Bash',
      input: { command, description: 'Look at the environment' },
    });
    // Calibration: without the token in its environment, env is an everyday read and runs.
    const plain = await claude([bash('env')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(s.model.toolResults()[0]).toMatchObject({ isError: false });
    expect(s.model.toolResults()[0]?.text).toContain(`HOME=${s.p.home}`);
    for (const command of ['env', 'echo $GATEHOUSE_HUB_TOKEN']) {
      s.model.script([bash(command)]);
      const running = runClaude({
        cwd: s.p.project,
        home: s.p.home,
        modelUrl: s.model.url,
        env: { ...s.daemon.env, GATEHOUSE_HUB_TOKEN: token },
        mode: 'bypassPermissions',
      });
      const asked = await pendingWhileRunning(s.admin, running);
      expect(asked).toMatchObject({
        command,
        rule: 'protected:gatehouse_secret',
        risk: 'critical',
      });
      await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
      const run = await running;
      expect(run.code, run.stderr).toBe(0);
      const [result] = s.model.toolResults();
      expect(result?.isError, command).toBe(true);
      expect(JSON.stringify(s.model.requests)).not.toContain(token);
    }
  });

  it("Claude Code's shell snapshot, which it runs before every Bash command, stays unwritten even under a rule allowing edits", async () => {
    // A person's broad rule lets every edit through; the snapshot is protected all the same:
    // written, a later `ls` Gatehouse allows would run what the agent put there.
    const { rule } = await s.admin.call('rules.add', { action: 'edit_file', tier: 'auto' });
    const marker = join(s.p.dir, 'injected-ran');
    const inject = `sed -i '$a ls() { echo ran > ${marker}; }' ~/.claude/shell-snapshots/*.sh`;
    try {
      const running = claude([
        { name: 'Bash', input: { command: inject, description: 'Tidy the shell' } },
        { name: 'Bash', input: { command: 'ls', description: 'List the project' } },
      ]);
      const first = await Promise.race([
        running.then(() => undefined),
        waitForPending(s.admin, (r) => r.command === inject, 110_000),
      ]);
      if (first) {
        expect(first).toMatchObject({ rule: 'protected:startup_config', risk: 'critical' });
        await s.admin.call('decide', { requestId: first.requestId, decision: 'deny' });
      }
      const run = await running;
      expect(run.code, run.stderr).toBe(0);
      // The `ls` after it ran as Claude Code runs every command: through the snapshot.
      expect(existsSync(marker), 'the injected function ran').toBe(false);
      expect(first, 'the write to the snapshot asked').toBeDefined();
    } finally {
      await s.admin.call('rules.remove', { ruleId: rule.ruleId });
    }
  });

  it("the file the person's BASH_ENV names, which bash runs before every command, stays unwritten under a rule allowing edits", async () => {
    // bash sources $BASH_ENV ahead of each non-interactive command, Claude Code's included:
    // written, a later `ls` Gatehouse allows would run what the agent put there.
    const bashEnv = join(s.p.home, 'shell', 'env.sh');
    mkdirSync(join(s.p.home, 'shell'), { recursive: true });
    writeFileSync(bashEnv, 'export EDITOR=vi\n');
    const { rule } = await s.admin.call('rules.add', { action: 'edit_file', tier: 'auto' });
    const marker = join(s.p.dir, 'bash-env-ran');
    const inject = `sed -i '$a ls() { echo ran > ${marker}; }' ${bashEnv}`;
    try {
      const { daemon, model, p } = s;
      model.script([
        { name: 'Bash', input: { command: inject, description: 'Tidy the shell' } },
        { name: 'Bash', input: { command: 'ls', description: 'List the project' } },
      ]);
      const running = runClaude({
        cwd: p.project,
        home: p.home,
        modelUrl: model.url,
        env: { ...daemon.env, BASH_ENV: bashEnv },
        mode: 'bypassPermissions',
      });
      const first = await Promise.race([
        running.then(() => undefined),
        waitForPending(s.admin, (r) => r.command === inject, 110_000),
      ]);
      if (first) {
        expect(first).toMatchObject({ rule: 'protected:startup_config', risk: 'critical' });
        await s.admin.call('decide', { requestId: first.requestId, decision: 'deny' });
      }
      const run = await running;
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(marker), 'the injected function ran').toBe(false);
      expect(readFileSync(bashEnv, 'utf8')).toBe('export EDITOR=vi\n');
      expect(first, 'the write to $BASH_ENV asked').toBeDefined();
    } finally {
      await s.admin.call('rules.remove', { ruleId: rule.ruleId });
    }
  });

  it('a push hidden in awk asks, and the denial keeps it off the remote', async () => {
    const before = s.p.remoteHead();
    s.p.commit('hidden in awk');
    const command = `awk 'BEGIN{system("git push origin main")}'`;
    const running = claude([{ name: 'Bash', input: { command, description: 'Count lines' } }]);
    // awk is not a reader: its program runs commands, so the call waits for a person.
    const asked = await pendingWhileRunning(s.admin, running);
    expect(asked).toMatchObject({ command, tier: 'ask' });
    expect(asked.ruleReason).toMatch(/awk/);
    expect(s.p.remoteHead()).toBe(before);
    await s.admin.call('decide', {
      requestId: asked.requestId,
      decision: 'deny',
      reason: 'no pushing through awk',
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain('no pushing through awk');
    expect(s.p.remoteHead()).toBe(before);
    console.log(`claude-code e2e: awk-hidden push refused in ${run.seconds.toFixed(1)} s`);
  });

  it('in default mode too, the hook decides: an approved push lands without a Claude Code prompt', async () => {
    s.p.commit('default mode');
    const run = await decidePush(s.admin, s.p, claude([push], 'default'), 'approve');
    expect(run.code, run.stderr).toBe(0);
    console.log(`claude-code e2e: default-mode push in ${run.seconds.toFixed(1)} s`);
  });

  it('a paused agent is stopped (continue: false): the push never runs and nothing is filed', async () => {
    const run = await runWhilePaused(s.admin, s.p, 'claude-code', () => claude([push, push]));
    // Claude Code ended the run on the hook's `continue: false`, after the first call:
    // the model never got a second turn.
    const result = claudeRunResult(run);
    expect(result.terminal_reason).toBe('hook_stopped');
    expect(result.permission_denials).toHaveLength(1);
    expect(s.model.toolResults()).toEqual([]);
    console.log(`claude-code e2e: paused agent stopped in ${run.seconds.toFixed(1)} s`);
  });

  it("a Read of Gatehouse's admin token never returns the token to the model", async () => {
    const tokenFile = join(s.daemon.home, 'admin.token');
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(token.length).toBeGreaterThan(10);
    const running = claude([{ name: 'Read', input: { file_path: tokenFile } }]);
    // Gatehouse's own files always ask, critical: no rule or mode lets the read through.
    const asked = await waitForPending(s.admin, () => true);
    expect(asked).toMatchObject({
      action: 'read_file',
      risk: 'critical',
      rule: 'protected:gatehouse',
    });
    await s.admin.call('decide', {
      requestId: asked.requestId,
      decision: 'deny',
      reason: 'an agent does not read the admin token',
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.isError).toBe(true);
    expect(s.model.allRequestText()).not.toContain(token);
    expect(run.stdout).not.toContain(token);
    console.log(`claude-code e2e: admin token read refused in ${run.seconds.toFixed(1)} s`);
  });

  it('a token read by `cat $PWD/../…` asks, critical, and a denial keeps it from the model', async () => {
    const tokenFile = join(s.daemon.home, 'admin.token');
    const token = readFileSync(tokenFile, 'utf8').trim();
    const command = `cat $PWD/${relative(s.p.project, tokenFile)}`;
    const running = claude([{ name: 'Bash', input: { command, description: 'Read notes' } }]);
    const asked = await waitForPending(s.admin, () => true);
    expect(asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse', command });
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(s.model.toolResults()[0]?.isError).toBe(true);
    expect(s.model.allRequestText()).not.toContain(token);
    expect(run.stdout).not.toContain(token);
    console.log(`claude-code e2e: cat $PWD/../ token read refused in ${run.seconds.toFixed(1)} s`);
  });

  it('a hook config rewrite by `sort -o` asks, critical, and a denial leaves the file alone', async () => {
    const settings = join(s.p.project, '.claude', 'settings.json');
    // The project's own settings are there, so a `sort -o` let through would replace them.
    const original = '{"permissions":{"allow":["Bash(npm test)"]}}\n';
    mkdirSync(join(s.p.project, '.claude'), { recursive: true });
    writeFileSync(settings, original);
    const command = `echo '{"disableAllHooks":true}' | sort -o .claude//settings.json`;
    const running = claude([{ name: 'Bash', input: { command, description: 'Tidy settings' } }]);
    const asked = await waitForPending(s.admin, () => true);
    expect(asked).toMatchObject({ risk: 'critical', rule: 'protected:change_gatehouse_policy' });
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(s.model.toolResults()[0]?.isError).toBe(true);
    expect(readFileSync(settings, 'utf8')).toBe(original);
    console.log(`claude-code e2e: sort -o settings rewrite refused in ${run.seconds.toFixed(1)} s`);
  });

  it('a policy file the agent writes does not promote its next push', async () => {
    const before = s.p.remoteHead();
    s.p.commit('third');
    const running = claude([
      {
        name: 'Write',
        input: {
          file_path: join(s.p.project, '.gatehouse.toml'),
          content: '[rules]\nallow_without_permission = ["git_push", "deploy"]\n',
        },
      },
      push,
    ]);
    // The person approves what looks like a file write (whatever action it is filed as).
    const write = await waitForPending(s.admin, () => true);
    expect(write.action).not.toBe('git_push');
    await s.admin.call('decide', { requestId: write.requestId, decision: 'approve' });
    // The push still waits for a person: the agent's own file did not make it auto.
    const pending = await Promise.race([
      waitForPending(s.admin, 'git_push'),
      running.then(() => undefined),
    ]);
    expect(
      pending,
      `the push did not wait for a person (it ${s.p.remoteHead() === before ? 'did not land' : 'landed'})`,
    ).toBeDefined();
    expect(s.p.remoteHead()).toBe(before);
    await s.admin.call('decide', { requestId: pending!.requestId, decision: 'deny' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(s.p.remoteHead()).toBe(before);
    console.log(`claude-code e2e: policy file write + push in ${run.seconds.toFixed(1)} s`);
  });

  it("an approval's note reaches the model (additionalContext beside the allow)", async () => {
    const note = 'push this once, then open the pull request';
    await approvePushWithNote(s.admin, s.p, () => claude([push]), note);
    expect(s.model.allRequestText()).toContain(note);
  });

  it('an edited push is what Claude Code runs: `git push origin main` approved as `git push origin feature`', async () => {
    const run = await expectEditedPush(s.admin, s.p, () => claude([push]));
    console.log(`claude-code e2e: edited push in ${run.seconds.toFixed(1)} s`);
  });
});
