import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { daemonPerDescribe, type TestDaemon, waitForPending } from '../../support/daemon';
import { RpcError } from '../../../clients/sdk/rpc-client';

/**
 * Edit before approving, through the real daemon, CLI and Claude Code hook process: the
 * person approves an edited call, the hook answers with it as `updatedInput` (what Claude
 * Code runs), the audit keeps both versions; a riskier edit needs confirming; an edit that
 * could not reach the agent (it is not waiting, or its hooks cannot run one) is refused.
 */

/** The hook's whole answer, `updatedInput` included. */
const hookOutput = (stdout: string) =>
  JSON.parse(stdout.trim()) as {
    hookSpecificOutput: {
      permissionDecision: string;
      permissionDecisionReason: string;
      updatedInput?: Record<string, unknown>;
    };
  };

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'gh-edit-'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('edit before approving (real daemon, real hook process)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));

  it('Claude Code gets the edited command as updatedInput; the audit keeps both versions', async () => {
    const running = runClaudeHook(
      d.env,
      preToolUse('Bash', { command: 'git push origin main' }, { cwd: project, id: 'tu-edit-1' }),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-edit-1');
    const approved = await d.cli([
      'approve',
      filed.requestId,
      '--edit-command',
      'git push origin feature',
    ]);
    expect(approved.stderr).toBe('');
    const answer = await running;
    const out = hookOutput(answer.stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe('allow');
    // A person approved it, so it also runs outside Claude Code's sandbox (as approved calls do).
    expect(out.updatedInput).toEqual({
      command: 'git push origin feature',
      dangerouslyDisableSandbox: true,
    });
    expect(out.permissionDecisionReason).toContain(
      'the person edited the call before approving it',
    );
    const { events } = await admin.call('audit.query', { requestId: filed.requestId });
    expect(events.find((e) => e.type === 'request.approved')?.data).toMatchObject({
      edited: {
        asked: 'git push origin main',
        approved: { command: 'git push origin feature' },
        action: 'git_push',
      },
    });
  });

  it("an edited call is judged in the agent's environment: through its CDPATH a cd reaches Gatehouse's files, so the approved edit stays in the sandbox", async () => {
    // The agent's shell inherits CDPATH: `cd <name>` goes to Gatehouse's data folder.
    const env = { ...d.env, CDPATH: dirname(d.home) };
    const into = `cd ${basename(d.home)} && `;
    const running = runClaudeHook(
      env,
      preToolUse('Bash', { command: `${into}cat admin.token` }, { cwd: project, id: 'tu-env' }),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-env');
    expect(filed).toMatchObject({ rule: 'protected:gatehouse', risk: 'critical' });
    const edited = `${into}head -c 0 admin.token`;
    const approved = await d.cli(['approve', filed.requestId, '--edit-command', edited]);
    expect(approved.stderr).toBe('');
    const out = hookOutput((await running).stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe('allow');
    // No dangerouslyDisableSandbox: the sandbox still keeps Gatehouse's files from the call.
    expect(out.updatedInput).toEqual({ command: edited });
  });

  it("a call too large to keep for editing is still judged in the agent's environment when edited: reaching Gatehouse's files through CDPATH needs confirming", async () => {
    const env = { ...d.env, CDPATH: dirname(d.home) };
    // Past the 16 KB kept for editing (the person's edit starts from scratch), under the
    // 64 KB Gatehouse parses.
    const padding = ` # ${'x'.repeat(20 * 1024)}`;
    const running = runClaudeHook(
      env,
      preToolUse(
        'Bash',
        { command: `git push origin main${padding}` },
        { cwd: project, id: 'tu-env-big' },
      ),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-env-big');
    expect(filed.context?.toolInput).toBeUndefined();
    expect(filed.rule).not.toMatch(/^protected:/);
    const edited = `cd ${basename(d.home)} && head -c 0 admin.token`;
    const refused = await d.cli(['approve', filed.requestId, '--edit-command', edited]);
    expect(refused.stderr).toMatch(/riskier than the one asked.*protected:gatehouse/);
    expect((await admin.call('request.get', { requestId: filed.requestId })).request.status).toBe(
      'pending',
    );
    await admin.call('decide', { requestId: filed.requestId, decision: 'deny' });
    expect(hookOutput((await running).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('a riskier edited call needs confirming, and the person sees why first', async () => {
    const running = runClaudeHook(
      d.env,
      preToolUse('Bash', { command: 'git push origin feature' }, { cwd: project, id: 'tu-edit-2' }),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-edit-2');
    const riskier = { command: `cat ${join(d.home, 'admin.token')}` };
    const refused = await admin
      .call('decide', { requestId: filed.requestId, decision: 'approve', edit: { input: riskier } })
      .catch((e: unknown) => e);
    expect(refused instanceof RpcError && refused.code).toBe(-32602);
    expect(String((refused as Error).message)).toMatch(/riskier than the one asked/);
    // Still waiting: nothing was decided.
    expect((await admin.call('request.get', { requestId: filed.requestId })).request.status).toBe(
      'pending',
    );
    const cli = await d.cli(['approve', filed.requestId, '--edit-command', riskier.command]);
    expect(cli.stderr).toMatch(/riskier than the one asked/);
    await admin.call('decide', {
      requestId: filed.requestId,
      decision: 'approve',
      edit: { input: riskier, confirmRiskier: true },
    });
    const out = hookOutput((await running).stdout).hookSpecificOutput;
    // Judged as edited: it names Gatehouse's own files, so it stays in the sandbox.
    expect(out.updatedInput).toEqual(riskier);
  });

  it("an edited MCP call is mapped as the agent's was: Gemini CLI's server and tool reported apart from the name", async () => {
    const agent = await d.agent({ agent: 'gemini', project });
    try {
      const asked = agent.gate({
        client: 'gemini',
        event: 'BeforeTool',
        tool: 'mcp_my_srv_lookup',
        mcp: { server: 'my_srv', tool: 'lookup' },
        input: { q: 'a' },
        toolUseId: 'tu-mcp-edit',
        cwd: project,
        wait: true,
      });
      const filed = await waitForPending(admin, (r) => r.dedupeKey === 'gemini:tu-mcp-edit');
      expect(filed.action).toBe('mcp:my_srv:lookup');
      await admin.call('decide', {
        requestId: filed.requestId,
        decision: 'approve',
        edit: { input: { q: 'b' } },
      });
      expect(await asked).toMatchObject({ outcome: 'allow', updatedInput: { q: 'b' } });
      const { events } = await admin.call('audit.query', { requestId: filed.requestId });
      const edited = events.find((e) => e.type === 'request.approved')?.data.edited;
      // The same action, not an unsplit `tool:mcp_my_srv_lookup`.
      expect(edited).toMatchObject({ action: 'mcp:my_srv:lookup', rule: filed.rule });
    } finally {
      agent.close();
    }
  });

  it('refuses an edit that could not reach the agent: not waiting, or hooks that cannot run one', async () => {
    let agent: GatehouseClient | undefined;
    try {
      agent = await d.agent({ agent: 'claude-code', project });
      await agent.gate({
        client: 'claude-code',
        event: 'PreToolUse',
        tool: 'Bash',
        input: { command: 'git push origin main' },
        toolUseId: 'tu-edit-3',
        cwd: project,
        wait: false,
      });
      const gone = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-edit-3');
      const notWaiting = await admin
        .call('decide', {
          requestId: gone.requestId,
          decision: 'approve',
          edit: { input: { command: 'git push origin feature' } },
        })
        .catch((e: unknown) => e);
      expect(String((notWaiting as Error).message)).toMatch(/not waiting for this answer/);

      // Cursor's hooks take no edited input.
      const cursor = agent.gate({
        client: 'cursor',
        event: 'beforeShellExecution',
        tool: 'Shell',
        input: { command: 'git push origin main' },
        toolUseId: 'tu-edit-4',
        cwd: project,
        wait: true,
      });
      const other = await waitForPending(admin, (r) => r.dedupeKey === 'cursor:tu-edit-4');
      const cannot = await admin
        .call('decide', {
          requestId: other.requestId,
          decision: 'approve',
          edit: { input: { command: 'git push origin feature' } },
        })
        .catch((e: unknown) => e);
      expect(String((cannot as Error).message)).toMatch(/cannot run an edited call/);
      await admin.call('decide', { requestId: other.requestId, decision: 'deny', reason: 'no' });
      expect((await cursor).outcome).toBe('deny');
      // An edit only approves once.
      const session = await admin
        .call('decide', {
          requestId: gone.requestId,
          decision: 'approve',
          scope: 'session',
          edit: { input: { command: 'git push origin feature' } },
        })
        .catch((e: unknown) => e);
      expect(String((session as Error).message)).toMatch(/approved once only/);
    } finally {
      agent?.close();
    }
  });
});
