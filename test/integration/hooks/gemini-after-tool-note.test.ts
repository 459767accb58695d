import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { runCli, TestDaemon, waitForPending, type CliResult } from '../../support/daemon';

/**
 * A person's approval note for Gemini CLI, through the real `gatehouse hook gemini` process
 * and a real daemon: BeforeTool cannot carry it, so the daemon keeps it and the AfterTool hook
 * of the same call asks for it. The agent is the attacker here too: another session, another
 * input or a second ask gets nothing, and the AfterTool hook never refuses or fails the call.
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-gemini-note-')));
const home = join(root, 'home');
const project = join(root, 'app');

let d: TestDaemon;
let admin: AdminClient;
let hookEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  d = await TestDaemon.start({ HOME: home, GATEHOUSE_HOME: join(root, 'gatehouse') }, [
    '--no-dashboard',
  ]);
  admin = await d.admin();
  hookEnv = { ...d.env, HOME: home, GATEHOUSE_HOOK_WAIT_MS: '20000' };
}, 60_000);

afterAll(async () => {
  admin?.close();
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

const push = { command: 'git push origin main', description: 'Push main' };

/** One Gemini CLI 0.61.0 hook payload through the real hook process. */
function hook(
  event: 'BeforeTool' | 'AfterTool',
  input: Record<string, unknown>,
  session = 'note-session',
  env = hookEnv,
): Promise<CliResult> {
  const payload = {
    session_id: session,
    transcript_path: join(root, 'chat.jsonl'),
    cwd: project,
    hook_event_name: event,
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: input,
    ...(event === 'AfterTool' ? { tool_response: { llmContent: 'Everything up-to-date' } } : {}),
  };
  return runCli(env, ['hook', 'gemini'], JSON.stringify(payload));
}

const noteOf = (r: CliResult): string | undefined =>
  r.stdout.trim()
    ? (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } })
        .hookSpecificOutput.additionalContext
    : undefined;

/** A push approved by a person with `note` while its BeforeTool hook waits. */
async function approvedWithNote(note: string, input = push): Promise<void> {
  const before = hook('BeforeTool', input);
  const filed = await waitForPending(admin, (r) => r.action === 'git_push');
  await admin.call('decide', { requestId: filed.requestId, decision: 'approve', message: note });
  const r = await before;
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'allow' });
}

describe("Gemini CLI's AfterTool hook and a person's approval note", () => {
  it('hands the note to the same call of the same session, once; not to another session or input', async () => {
    const note = 'push once, then open the pull request';
    await approvedWithNote(note);
    // Another session's AfterTool for the very same call: nothing (and the note stays).
    expect((await hook('AfterTool', push, 'other-session')).stdout).toBe('');
    // The same session, another input: nothing.
    expect((await hook('AfterTool', { ...push, command: 'git push origin dev' })).stdout).toBe('');
    // The call that ran, its keys in another order: the note, as additionalContext.
    const after = await hook('AfterTool', { description: push.description, command: push.command });
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({
      hookSpecificOutput: { hookEventName: 'AfterTool' },
    });
    expect(noteOf(after)).toMatch(/^Gatehouse: git_push approved by human \(req-[^)]+\): /);
    expect(noteOf(after)).toContain(note);
    // Handed out once: the same call reported again gets nothing.
    expect((await hook('AfterTool', push)).stdout).toBe('');
  }, 60_000);

  it("an edited call's note goes with the input the person approved, which Gemini CLI runs", async () => {
    const before = hook('BeforeTool', push);
    const filed = await waitForPending(admin, (r) => r.action === 'git_push');
    const edited = { command: 'git push origin feature' };
    await admin.call('decide', {
      requestId: filed.requestId,
      decision: 'approve',
      message: 'only the feature branch',
      edit: { input: edited },
    });
    expect(JSON.parse((await before).stdout)).toMatchObject({
      decision: 'allow',
      hookSpecificOutput: { tool_input: edited },
    });
    // The model's own input did not run: nothing for it.
    expect((await hook('AfterTool', push)).stdout).toBe('');
    expect(noteOf(await hook('AfterTool', edited))).toContain('only the feature branch');
  }, 60_000);

  it('an auto-allowed call leaves no note, and its AfterTool prints nothing', async () => {
    const ls = { command: 'ls' };
    const before = await hook('BeforeTool', ls);
    expect(JSON.parse(before.stdout)).toMatchObject({ decision: 'allow' });
    const started = performance.now();
    const after = await hook('AfterTool', ls);
    const ms = performance.now() - started;
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toBe('');
    console.log(`gemini AfterTool hook without a note: ${ms.toFixed(0)} ms (process included)`);
  }, 60_000);

  it('never refuses: Gatehouse down or an unreadable payload prints nothing and exits 0', async () => {
    const down = { ...hookEnv, GATEHOUSE_SOCKET: join(root, 'no-such.sock') };
    const after = await hook('AfterTool', push, 'note-session', down);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe('');
    // The same broken setup refuses a BeforeTool call (fail closed): only AfterTool is open.
    const before = await hook('BeforeTool', push, 'note-session', down);
    expect(JSON.parse(before.stdout)).toMatchObject({ decision: 'deny' });
    const garbage = await runCli(hookEnv, ['hook', 'gemini'], '{"hook_event_name":"AfterTool"');
    expect(garbage.code).toBe(0);
    expect(garbage.stdout).toBe('');
  }, 60_000);
});
