import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse } from '../../support/claude-hook';
import { runCli, TestDaemon, waitForPending } from '../../support/daemon';

interface Answer {
  hookSpecificOutput: {
    permissionDecision: string;
    permissionDecisionReason: string;
    updatedInput?: Record<string, unknown>;
  };
}

/**
 * What the real hook process tells Claude Code about its sandbox, by who let the call
 * through, against a real daemon: a person's approval, their session grant and their rule
 * each send `updatedInput` with `dangerouslyDisableSandbox: true`; Gatehouse's own table
 * sends none; the agent's own flag asks, and only the person's rule for that exact command
 * lets it through.
 */
describe("the hook's answer and Claude Code's sandbox (real hook, real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-sandbox-answers-')));

  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  async function hook(input: Record<string, unknown>, waitMs = 300): Promise<Answer> {
    const r = await runCli(
      { ...d.env, GATEHOUSE_HOOK_FALLBACK: 'deny', GATEHOUSE_HOOK_WAIT_MS: String(waitMs) },
      ['hook', 'claude-code'],
      JSON.stringify(preToolUse('Bash', input, { cwd: project, session: 'sandbox-answers' })),
    );
    return JSON.parse(r.stdout) as Answer;
  }
  const out = (a: Answer) => a.hookSpecificOutput;

  it("Gatehouse's own allow leaves the input alone: the call stays in the sandbox", async () => {
    const a = out(await hook({ command: 'ls' }));
    expect(a.permissionDecision).toBe('allow');
    expect(a.updatedInput).toBeUndefined();
  });

  it("a person's approval, then their session grant, take the call out of the sandbox", async () => {
    const input = { command: 'git push origin main', description: 'Push' };
    const asking = hook(input, 20_000);
    const pending = await waitForPending(admin, 'git_push');
    expect((await d.cli(['approve', pending.requestId, '--scope', 'session'])).code).toBe(0);
    const approved = out(await asking);
    expect(approved.permissionDecision).toBe('allow');
    expect(approved.updatedInput).toEqual({ ...input, dangerouslyDisableSandbox: true });
    // The same call again: the session grant lets it through, and it leaves the sandbox too.
    const granted = out(await hook(input));
    expect(granted.permissionDecisionReason).toMatch(/grant/);
    expect(granted.updatedInput).toEqual({ ...input, dangerouslyDisableSandbox: true });
  });

  it('a rule the person wrote takes the calls it allows out of the sandbox', async () => {
    const command = 'curl -sS http://127.0.0.1:9/';
    const r = await d.cli(['rules', 'add', 'web_fetch', '--tier', 'auto', '--command', command]);
    expect(r.code, r.stderr).toBe(0);
    const a = out(await hook({ command }));
    expect(a.permissionDecision).toBe('allow');
    expect(a.updatedInput).toEqual({ command, dangerouslyDisableSandbox: true });
  });

  it("the agent's own dangerouslyDisableSandbox asks, even on ls, named as such", async () => {
    const a = out(await hook({ command: 'ls', dangerouslyDisableSandbox: true }));
    expect(a.permissionDecision).toBe('deny');
    const { requests } = await admin.call('requests.query', { action: 'leave_sandbox' });
    expect(requests[0]).toMatchObject({
      rule: 'protected:leave_sandbox',
      risk: 'critical',
      command: 'ls',
    });
    expect(requests[0]!.ruleReason).toMatch(/outside Claude Code's sandbox/);
  });

  it('a session approval of it is refused: only once, or a rule for the exact command', async () => {
    const asking = hook({ command: 'ls -a', dangerouslyDisableSandbox: true }, 20_000);
    const pending = await waitForPending(admin, 'leave_sandbox');
    const session = await d.cli(['approve', pending.requestId, '--scope', 'session']);
    expect(session.code).not.toBe(0);
    expect((await d.cli(['approve', pending.requestId])).code).toBe(0);
    expect(out(await asking).updatedInput).toEqual({
      command: 'ls -a',
      dangerouslyDisableSandbox: true,
    });

    // A rule for every command does not let it through; one for exactly this command does.
    expect((await d.cli(['rules', 'add', 'leave_sandbox', '--tier', 'auto'])).code).toBe(0);
    expect(
      out(await hook({ command: 'ls -l', dangerouslyDisableSandbox: true })).permissionDecision,
    ).toBe('deny');
    const exact = await d.cli([
      'rules',
      'add',
      'leave_sandbox',
      '--tier',
      'auto',
      '--command',
      'ls -l',
    ]);
    expect(exact.code, exact.stderr).toBe(0);
    const a = out(await hook({ command: 'ls -l', dangerouslyDisableSandbox: true }));
    expect(a.permissionDecision).toBe('allow');
    expect(a.updatedInput).toEqual({ command: 'ls -l', dangerouslyDisableSandbox: true });
  });
});
