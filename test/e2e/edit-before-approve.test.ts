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

/** The dashboard at 1280 px, live, and a way to open one request's detail in it. */
async function openDashboard() {
  const wide = await openPage(ctx.browser, { width: 1280, height: 900 });
  await wide.page.goto(ctx.daemon.url);
  await wide.page.locator('[data-testid=connection-status][data-state=live]').waitFor();
  const open = async (requestId: string) => {
    await wide.page.goto(`${ctx.daemon.origin}/#request=${requestId}`);
    await wide.page.locator(`[data-testid=request-detail][data-request-id=${requestId}]`).waitFor();
  };
  return { wide, open };
}

describe('edit before approving in the browser', () => {
  it('approves an edited command, confirms a riskier one, and says when an agent cannot take one', async () => {
    const admin = await ctx.daemon.admin();
    const env = ctx.daemon.daemon.env;
    const { wide, open } = await openDashboard();

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

    // Cursor's hooks take no edited input: the edit is not offered.
    const agent = await ctx.daemon.agent('cursor', project);
    void agent.gate({
      client: 'cursor',
      event: 'beforeShellExecution',
      tool: 'Shell',
      input: { command: 'git push origin main' },
      toolUseId: 'tu-e3',
      cwd: project,
      wait: false,
    });
    const other = await waitForPending(admin, (r) => r.dedupeKey === 'cursor:tu-e3');
    await open(other.requestId);
    await wide.page.getByTestId('edit-unsupported').waitFor();
    expect(await wide.page.getByTestId('edit-open').count()).toBe(0);
    expect(wide.problems).toEqual([]);
    await wide.context.close();
  }, 90_000);

  it("edits a file write's content and an MCP call's arguments as JSON; a riskier edited path needs confirming", async () => {
    const admin = await ctx.daemon.admin();
    const env = ctx.daemon.daemon.env;
    const { wide, open } = await openDashboard();
    const file = join(project, 'release-notes.md');
    const write = runClaudeHook(
      env,
      preToolUse(
        'Write',
        { file_path: file, content: 'Ship it on Friday\n' },
        { cwd: project, id: 'tu-w1' },
      ),
    );
    const asked = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-w1');
    await open(asked.requestId);
    await wide.page.getByTestId('edit-open').click();
    const editor = wide.page.getByTestId('edit-command');
    // The call's own input, as JSON, to edit.
    expect(JSON.parse(await editor.inputValue())).toEqual({
      file_path: file,
      content: 'Ship it on Friday\n',
    });
    // Not JSON: said so, nothing decided.
    await editor.fill('{ "file_path": ');
    await wide.page.getByTestId('edit-approve-button').click();
    await wide.page.getByTestId('edit-error').filter({ hasText: 'not JSON' }).waitFor();
    await editor.fill(JSON.stringify({ file_path: file, content: 'Ship it on Monday\n' }));
    await wide.page
      .getByTestId('decision-panel')
      .screenshot({ path: join(SCREENSHOTS, 'edit-input-before-approve-1280.png') });
    await wide.page.getByTestId('edit-approve-button').click();
    expect(updatedInputOf((await write).stdout)).toEqual({
      file_path: file,
      content: 'Ship it on Monday\n',
    });
    const audit = await admin.call('audit.query', { requestId: asked.requestId });
    expect(JSON.stringify(audit.events)).toContain('Ship it on Friday');
    expect(JSON.stringify(audit.events)).toContain('Ship it on Monday');

    // The same write edited to land in Gatehouse's own files is riskier: shown, then confirmed.
    const second = runClaudeHook(
      env,
      preToolUse('Write', { file_path: file, content: 'v2\n' }, { cwd: project, id: 'tu-w2' }),
    );
    const risky = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-w2');
    await open(risky.requestId);
    await wide.page.getByTestId('edit-open').click();
    const policy = join(ctx.daemon.daemon.home, 'policy.yaml');
    await wide.page
      .getByTestId('edit-command')
      .fill(JSON.stringify({ file_path: policy, content: 'rules: []\n' }));
    await wide.page.getByTestId('edit-approve-button').click();
    await wide.page.getByTestId('edit-riskier').waitFor();
    expect((await admin.call('request.get', { requestId: risky.requestId })).request.status).toBe(
      'pending',
    );
    await wide.page.getByTestId('edit-confirm-riskier').click();
    expect(updatedInputOf((await second).stdout)).toMatchObject({ file_path: policy });

    // An MCP call's arguments.
    const mail = runClaudeHook(
      env,
      preToolUse(
        'mcp__gmail__send_email',
        { to: ['team@example.com'], subject: 'Release', body: 'Out on Friday' },
        { cwd: project, id: 'tu-m1' },
      ),
    );
    const message = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-m1');
    await open(message.requestId);
    await wide.page.getByTestId('edit-open').click();
    const edited = { to: ['team@example.com'], subject: 'Release', body: 'Out on Monday' };
    await wide.page.getByTestId('edit-command').fill(JSON.stringify(edited, null, 2));
    await wide.page.getByTestId('edit-approve-button').click();
    expect(updatedInputOf((await mail).stdout)).toEqual(edited);
    expect(wide.problems).toEqual([]);
    await wide.context.close();
  }, 90_000);
});
