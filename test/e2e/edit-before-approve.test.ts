import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preToolUse, runClaudeHook } from '../support/claude-hook';
import { openPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { dashboardForFile, SCREENSHOTS } from './harness';

// Edit before approving on the dashboard: the person edits a Claude Code command and approves
// it; the real hook process answers with the edited command. A riskier edit shows why and
// needs a second click; an agent whose hooks cannot run an edit is told so instead.

const ctx = dashboardForFile();
let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'gh-e2e-edit-'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The hook's answer, `updatedInput` included. */
const updatedInputOf = (stdout: string): unknown =>
  (JSON.parse(stdout.trim()) as { hookSpecificOutput: { updatedInput?: unknown } })
    .hookSpecificOutput.updatedInput;

describe('edit before approving in the browser', () => {
  it('approves an edited command, confirms a riskier one, and says when an agent cannot take one', async () => {
    const admin = await ctx.daemon.admin();
    const env = ctx.daemon.daemon.env;
    const wide = await openPage(ctx.browser, { width: 1280, height: 900 });
    await wide.page.goto(ctx.daemon.url);
    await wide.page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    const open = async (requestId: string) => {
      await wide.page.goto(`${ctx.daemon.origin}/#request=${requestId}`);
      await wide.page
        .locator(`[data-testid=request-detail][data-request-id=${requestId}]`)
        .waitFor();
    };

    const first = runClaudeHook(
      env,
      preToolUse('Bash', { command: 'git push origin main' }, { cwd: project, id: 'tu-e1' }),
    );
    const asked = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-e1');
    await open(asked.requestId);
    await wide.page.getByTestId('edit-open').click();
    await wide.page.getByTestId('edit-command').fill('git push origin feature');
    await wide.page
      .getByTestId('decision-panel')
      .screenshot({ path: join(SCREENSHOTS, 'edit-before-approve-1280.png') });
    await wide.page.getByTestId('edit-approve-button').click();
    // A person approved it: it runs outside Claude Code's sandbox, as approved calls do.
    expect(updatedInputOf((await first).stdout)).toEqual({
      command: 'git push origin feature',
      dangerouslyDisableSandbox: true,
    });

    const second = runClaudeHook(
      env,
      preToolUse('Bash', { command: 'git push origin feature' }, { cwd: project, id: 'tu-e2' }),
    );
    const risky = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-e2');
    await open(risky.requestId);
    await wide.page.getByTestId('edit-open').click();
    const token = join(ctx.daemon.daemon.home, 'admin.token');
    await wide.page.getByTestId('edit-command').fill(`cat ${token}`);
    await wide.page.getByTestId('edit-approve-button').click();
    const why = wide.page.getByTestId('edit-riskier');
    await why.waitFor();
    expect(await why.textContent()).toMatch(/riskier than the one asked/);
    expect((await admin.call('request.get', { requestId: risky.requestId })).request.status).toBe(
      'pending',
    );
    await wide.page.getByTestId('edit-confirm-riskier').click();
    // An edit that names Gatehouse's own files stays in the sandbox, which still hides them.
    expect(updatedInputOf((await second).stdout)).toEqual({ command: `cat ${token}` });

    const agent = await ctx.daemon.agent('gemini', project);
    void agent.gate({
      client: 'gemini',
      event: 'BeforeTool',
      tool: 'run_shell_command',
      input: { command: 'git push origin main' },
      toolUseId: 'tu-e3',
      cwd: project,
      wait: false,
    });
    const other = await waitForPending(admin, (r) => r.dedupeKey === 'gemini:tu-e3');
    await open(other.requestId);
    await wide.page.getByTestId('edit-unsupported').waitFor();
    expect(await wide.page.getByTestId('edit-open').count()).toBe(0);
    expect(wide.problems).toEqual([]);
    await wide.context.close();
  }, 90_000);
});
