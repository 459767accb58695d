import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ResponsesModelServer,
  type FunctionStep,
} from '../../support/model-server/openai-responses';
import { runCli, waitForPending } from '../../support/daemon';
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
import { codexHomeFor, runCodexExec } from '../../support/codex-env';
import { expectEditedPush, expectPushAndEditPictures } from '../../support/agent-picture';
import { approvePushWithNote } from '../../support/agent-note';

/**
 * The real Codex CLI (`@openai/codex`, pinned in test/agents/package.json; its native binary
 * ships inside the npm package) run with `codex exec` against a scripted Responses API on
 * 127.0.0.1, with the hook installed by `gatehouse hook codex --install` into a temporary
 * CODEX_HOME and a real daemon deciding.
 */
describe('the real Codex CLI with the Gatehouse hook', () => {
  let s: AgentStage<ResponsesModelServer>;
  let codexHome: string;

  beforeAll(async () => {
    s = await openAgentStage(() => ResponsesModelServer.start());
    codexHome = codexHomeFor(s.p.home, s.model.url);
    const installed = await installHook(s, ['codex', '--install'], {
      CODEX_HOME: codexHome,
    });
    expect(installed.stdout).toMatch(
      /Installed the Gatehouse hooks \(PreToolUse, Stop, SessionEnd\)/,
    );
    expect(installed.stdout).toMatch(/waits up to 5 min for a person/);
    // Codex lets a call run when its hook times out: the wait is pinned below the timeout.
    const written = JSON.parse(readFileSync(join(codexHome, 'hooks.json'), 'utf8')) as {
      hooks: { PreToolUse: { hooks: { command: string; timeout: number }[] }[] };
    };
    const entry = written.hooks.PreToolUse[0]!.hooks[0]!;
    expect(entry.timeout).toBe(310);
    expect(entry.command).toContain('GATEHOUSE_HOOK_WAIT_MS=300000 ');
    expect(entry.command).toContain(`GATEHOUSE_SOCKET=${s.daemon.socketPath} `);
  });

  afterAll(() => closeAgentStage(s));

  /** Runs `codex exec` in the project with the model scripted to make these calls. */
  function codex(steps: FunctionStep[], flags: string[] = []) {
    s.model.script(steps);
    return runCodexExec(s.daemon.env, s.p.home, codexHome, s.p.project, flags);
  }

  const push: FunctionStep = { name: 'exec_command', arguments: { cmd: 'git push origin main' } };

  it('a git push waits for a person and lands when approved', async () => {
    // Codex is waiting on the hook: nothing reaches the remote before the approval.
    const running = codex([push]);
    const pending = await waitForPending(s.admin, 'git_push');
    expect(pending.agent).toBe('codex');
    const run = await decidePush(s.admin, s.p, running, 'approve');
    expect(run.code, run.stderr).toBe(0);
    // One Codex session is one Gatehouse session: SessionEnd (`other`, the run ended) completed it.
    const { sessions } = await s.admin.call('sessions.list', { agent: 'codex' });
    expect(sessions.map((x) => x.status)).toEqual(['completed']);
    console.log(`codex e2e: approved push in ${run.seconds.toFixed(1)} s`);
  });

  it('a denied git push never lands, and Codex is told why', async () => {
    s.p.commit('second');
    const run = await decidePush(s.admin, s.p, codex([push]), 'deny', 'not before the release');
    expect(run.code, run.stderr).toBe(0);
    const [output] = s.model.outputs();
    expect(output?.output).toContain('not before the release');
    console.log(`codex e2e: denied push in ${run.seconds.toFixed(1)} s`);
  });

  it('the request carries what the call changes: the commits a push sends, the diff apply_patch makes', async () => {
    await expectPushAndEditPictures(s.admin, s.p, {
      push: () => codex([push]),
      // apply_patch is offered only to a model Codex knows to take it (its freeform tool).
      edit: () => {
        const patchHome = codexHomeFor(join(s.p.dir, 'patch-home'), s.model.url, 'gpt-5.5');
        copyFileSync(join(codexHome, 'hooks.json'), join(patchHome, 'hooks.json'));
        s.model.script([
          {
            name: 'apply_patch',
            arguments: {},
            custom: [
              '*** Begin Patch',
              '*** Update File: notes.txt',
              '@@',
              '-picture push',
              '+picture edit',
              '*** End Patch',
              '',
            ].join('\n'),
          },
        ]);
        return runCodexExec(s.daemon.env, s.p.home, patchHome, s.p.project, []);
      },
    });
  }, 240_000);

  it('an edited push is what Codex runs: `git push origin main` approved as `git push origin feature` (updatedInput)', async () => {
    const run = await expectEditedPush(s.admin, s.p, () => codex([push]));
    expect(run.code, run.stderr).toBe(0);
    // Codex took the hook's answer as valid (a failed hook would have run the original call).
    expect(run.stderr).toMatch(/hook: PreToolUse Completed/);
    expect(run.stderr).not.toMatch(/hook: PreToolUse Failed/);
  }, 240_000);

  it('an edited apply_patch is what Codex applies: updatedInput.command is the patch', async () => {
    s.p.commit('patch me');
    const patch = (line: string) =>
      [
        '*** Begin Patch',
        '*** Update File: notes.txt',
        '@@',
        '-patch me',
        `+${line}`,
        '*** End Patch',
        '',
      ].join('\n');
    // apply_patch is offered only to a model Codex knows to take it (its freeform tool).
    const patchHome = codexHomeFor(join(s.p.dir, 'patch-home'), s.model.url, 'gpt-5.5');
    copyFileSync(join(codexHome, 'hooks.json'), join(patchHome, 'hooks.json'));
    s.model.script([{ name: 'apply_patch', arguments: {}, custom: patch('the model wrote this') }]);
    const running = runCodexExec(s.daemon.env, s.p.home, patchHome, s.p.project, []);
    const asked = await pendingWhileRunning(s.admin, running, 'edit_file');
    await s.admin.call('decide', {
      requestId: asked.requestId,
      decision: 'approve',
      edit: { input: { command: patch('the person wrote this') } },
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(s.p.project, 'notes.txt'), 'utf8')).toBe('the person wrote this\n');
  }, 240_000);

  it("an approval's note reaches the model (additionalContext), and a plain allow is no failed hook", async () => {
    const note = 'push this once, then open the pull request';
    const run = await approvePushWithNote(s.admin, s.p, () => codex([push]), note);
    expect(s.model.allRequestText()).toContain(note);
    // An allow with `permissionDecision: "allow"` and no updatedInput is "unsupported" in
    // Codex 0.169: the hook failed (and the call ran anyway), its note dropped.
    expect(run.stderr).toMatch(/hook: PreToolUse Completed/);
    expect(run.stderr).not.toMatch(/hook: PreToolUse Failed/);
  }, 240_000);

  it('an auto action (git status) runs without a person, and is recorded', async () => {
    const running = codex([{ name: 'exec_command', arguments: { cmd: 'git status --short' } }]);
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const { requests } = await s.admin.call('pending.list', {});
    expect(requests).toEqual([]);
    const [output] = s.model.outputs();
    expect(output?.output).not.toMatch(/Gatehouse/);
    // Recorded in the Codex session, under the agent's own session id.
    const { sessions } = await s.admin.call('sessions.list', { agent: 'codex' });
    const transcripts = await Promise.all(
      sessions.map((x) => s.admin.call('session.get', { sessionId: x.sessionId })),
    );
    expect(
      transcripts.some((t) =>
        t.transcript.some((e) => e.kind === 'log' && e.text.includes('git status --short')),
      ),
    ).toBe(true);
    console.log(`codex e2e: auto action in ${run.seconds.toFixed(1)} s`);
  });

  it('a paused agent is stopped: the push never runs and nothing is filed', async () => {
    const run = await runWhilePaused(s.admin, s.p, 'codex', () => codex([push, push]));
    expect(run.code, run.stderr).toBe(0);
    // Codex has no "stop the run" answer a hook may give (continue: false makes its hook
    // fail, which lets the call run): every call is denied with the reason while paused.
    const outputs = s.model.outputs();
    expect(outputs).toHaveLength(2);
    for (const o of outputs) expect(o.output).toMatch(/Gatehouse says stop/);
    console.log(`codex e2e: paused agent stopped in ${run.seconds.toFixed(1)} s`);
  });

  it('with Gatehouse down the push is denied, and Codex is told how to start Gatehouse', async () => {
    const before = s.p.remoteHead();
    s.p.commit('while down');
    s.admin.close();
    await s.daemon.signal('SIGTERM');
    try {
      const run = await codex([push]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.p.remoteHead()).toBe(before);
      const [output] = s.model.outputs();
      expect(output?.output).toMatch(/cannot reach Gatehouse/);
      expect(output?.output).toMatch(/Start Gatehouse/);
      console.log(`codex e2e: Gatehouse down, push denied in ${run.seconds.toFixed(1)} s`);
    } finally {
      s.admin = await relaunch(s.daemon, s.admin);
    }
  });

  it("calibration: CODEX_HOME's .env reaches the hook's environment; with Gatehouse down, GATEHOUSE_HOOK_FALLBACK=defer there lets the push run", async () => {
    // What the protection of `.env` files is for: Codex loads it into its own environment at
    // start, and every hook it runs inherits it.
    const before = s.p.remoteHead();
    s.p.commit('env file');
    const envFile = join(codexHome, '.env');
    writeFileSync(envFile, 'GATEHOUSE_HOOK_FALLBACK=defer\n');
    s.admin.close();
    await s.daemon.signal('SIGTERM');
    try {
      const run = await codex([push]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.p.remoteHead()).not.toBe(before);
    } finally {
      rmSync(envFile);
      s.admin = await relaunch(s.daemon, s.admin);
    }
  });

  it('with --permission-request only what Codex would prompt for waits: an escalated push, approved, lands', async () => {
    const env = { ...s.daemon.env, HOME: s.p.home, CODEX_HOME: codexHome };
    const installed = await runCli(env, ['hook', 'codex', '--install', '--permission-request']);
    expect(installed.code, installed.stderr).toBe(0);
    const hooks = JSON.parse(readFileSync(join(codexHome, 'hooks.json'), 'utf8')) as {
      hooks: Record<string, unknown>;
    };
    expect(Object.keys(hooks.hooks).sort()).toEqual(['PermissionRequest', 'SessionEnd', 'Stop']);
    const head = s.p.commit('escalated');
    // PermissionRequest fires for a call that asks to leave the sandbox, with --approve-for-me.
    const running = codex(
      [
        {
          name: 'exec_command',
          arguments: {
            cmd: 'git push origin main',
            sandbox_permissions: 'require_escalated',
            justification: 'Push the release',
          },
        },
      ],
      ['--approve-for-me'],
    );
    const pending = await waitForPending(s.admin, 'git_push');
    expect(pending.description).toMatch(/Push the release: git push origin main/);
    expect(s.p.remoteHead()).not.toBe(head);
    await s.admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(s.p.remoteHead()).toBe(head);
    console.log(`codex e2e: PermissionRequest push in ${run.seconds.toFixed(1)} s`);

    const removed = await runCli(env, ['hook', 'codex', '--uninstall']);
    expect(removed.stdout).toMatch(/Removed 3 Gatehouse hook entries/);
    expect(JSON.parse(readFileSync(join(codexHome, 'hooks.json'), 'utf8'))).toEqual({});
  });
});
