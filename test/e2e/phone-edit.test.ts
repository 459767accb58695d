import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preToolUse, runClaudeHook } from '../support/claude-hook';
import { openPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { dashboardForFile, SCREENSHOTS } from './harness';

// Edit before approving on the phone page (the signed decision link, no script), at 390 px:
// the edited command reaches the real Claude Code hook; a riskier edit says why and needs a
// confirmation bound to that exact text; a masked secret stays off the page and goes back
// where the agent had it; an agent that cannot take an edit is offered none; the edit's POST
// keeps the page's form-token check.

const ctx = dashboardForFile();
let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'gh-e2e-phone-edit-'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const updatedInputOf = (stdout: string): unknown =>
  (JSON.parse(stdout.trim()) as { hookSpecificOutput: { updatedInput?: unknown } })
    .hookSpecificOutput.updatedInput;

/** The decision link's page at 390×844 for a request. */
async function phoneFor(requestId: string) {
  const admin = await ctx.daemon.admin();
  const { url } = await admin.call('request.link', { requestId, channel: 'sms' });
  const phone = await openPage(ctx.browser, { width: 390, height: 844 });
  await phone.page.goto(url);
  await phone.page.getByTestId('phone-approve').waitFor();
  return { ...phone, url };
}

/** The page's own refusals of an edit (422, the page again) are not problems of the page. */
const unexpected = (problems: string[]) => problems.filter((p) => !/^response: 422 /.test(p));

describe('edit before approving on the phone page', () => {
  it('approves an edited command at 390 px; the buttons stay on the first screen', async () => {
    const admin = await ctx.daemon.admin();
    const running = runClaudeHook(
      ctx.daemon.daemon.env,
      preToolUse('Bash', { command: 'git push origin main' }, { cwd: project, id: 'tu-p1' }),
    );
    const asked = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-p1');
    const { page, context, problems } = await phoneFor(asked.requestId);
    await page.getByTestId('phone-edit-open').click();
    const text = page.getByTestId('phone-edit-text');
    expect(await text.inputValue()).toBe('git push origin main');
    await text.fill('git push origin feature');
    for (const id of ['phone-approve', 'phone-deny']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box!.y + box!.height, id).toBeLessThanOrEqual(844);
    }
    expect(await page.evaluate('window.scrollY')).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-edit-390.png') });
    await page.getByTestId('phone-edit-approve').click();
    await page.getByTestId('phone-decided').waitFor();
    expect(updatedInputOf((await running).stdout)).toEqual({
      command: 'git push origin feature',
      dangerouslyDisableSandbox: true,
    });
    const { events } = await admin.call('audit.query', { requestId: asked.requestId });
    expect(events.find((e) => e.type === 'request.approved')?.data).toMatchObject({
      edited: { asked: 'git push origin main', approved: { command: 'git push origin feature' } },
    });
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('a riskier edit says why; the confirmation holds only for the text it was shown for', async () => {
    const admin = await ctx.daemon.admin();
    const running = runClaudeHook(
      ctx.daemon.daemon.env,
      preToolUse('Bash', { command: 'git push origin feature' }, { cwd: project, id: 'tu-p2' }),
    );
    const asked = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-p2');
    const { page, context, problems } = await phoneFor(asked.requestId);
    const token = join(ctx.daemon.daemon.home, 'admin.token');
    const linkKey = join(ctx.daemon.daemon.home, 'link.key');
    await page.getByTestId('phone-edit-open').click();
    await page.getByTestId('phone-edit-text').fill(`cat ${token}`);
    await page.getByTestId('phone-edit-approve').click();
    const why = page.getByTestId('phone-edit-riskier');
    await why.waitFor();
    expect(await why.textContent()).toMatch(/riskier than the one asked/);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-edit-riskier-390.png') });
    const status = async () =>
      (await admin.call('request.get', { requestId: asked.requestId })).request.status;
    expect(await status()).toBe('pending');
    // Another text, then the confirm button shown for the first: asked again, not approved.
    await page.getByTestId('phone-edit-text').fill(`cat ${linkKey}`);
    await page.getByTestId('phone-edit-confirm-riskier').click();
    await page.getByTestId('phone-edit-riskier').waitFor();
    expect(await page.getByTestId('phone-edit-text').inputValue()).toBe(`cat ${linkKey}`);
    expect(await status()).toBe('pending');
    // Confirmed for the text it was shown for: approved, through the same link (still unspent).
    await page.getByTestId('phone-edit-confirm-riskier').click();
    await page.getByTestId('phone-decided').waitFor();
    expect(updatedInputOf((await running).stdout)).toEqual({ command: `cat ${linkKey}` });
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 90_000);

  it('edits a masked input as JSON: the secret never reaches the page and runs where it was', async () => {
    const admin = await ctx.daemon.admin();
    const KEY = 'sk-proj-PHONEKEYPHONEKEYPHONEKEY12';
    const file = join(project, 'client.ts');
    const content = `const openai = new OpenAI({ apiKey: "${KEY}" });\nconst model = "small";\n`;
    const running = runClaudeHook(
      ctx.daemon.daemon.env,
      preToolUse('Write', { file_path: file, content }, { cwd: project, id: 'tu-p3' }),
    );
    const asked = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-p3');
    const { page, context, problems } = await phoneFor(asked.requestId);
    expect(await page.content()).not.toContain('PHONEKEY');
    await page.getByTestId('phone-edit-open').click();
    await page.getByTestId('phone-edit-masked').waitFor();
    const text = page.getByTestId('phone-edit-text');
    const shown = JSON.parse(await text.inputValue()) as { file_path: string; content: string };
    expect(shown.content).toContain('apiKey: "sk-p…[masked]"');
    // The placeholder copied into the path: refused, with why, nothing decided.
    await text.fill(JSON.stringify({ ...shown, file_path: join(project, 'sk-p…[masked]') }));
    await page.getByTestId('phone-edit-approve').click();
    await page.getByTestId('phone-edit-error').filter({ hasText: 'file_path' }).waitFor();
    expect((await admin.call('request.get', { requestId: asked.requestId })).request.status).toBe(
      'pending',
    );
    // Another line of the content edited, the key's line kept: the write runs with the key.
    const edited = { ...shown, content: shown.content.replace('"small"', '"large"') };
    await page.getByTestId('phone-edit-text').fill(JSON.stringify(edited, null, 2));
    await page.getByTestId('phone-edit-approve').click();
    await page.getByTestId('phone-decided').waitFor();
    expect(updatedInputOf((await running).stdout)).toEqual({
      file_path: file,
      content: content.replace('"small"', '"large"'),
    });
    expect(await page.content()).not.toContain('PHONEKEY');
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 90_000);

  it('masks a token in the command itself, in every line of the page and the field to edit', async () => {
    const admin = await ctx.daemon.admin();
    const TOKEN = 'ghp_PAGETOKENPAGETOKENPAGETOKEN1234';
    const running = runClaudeHook(
      ctx.daemon.daemon.env,
      preToolUse(
        'Bash',
        { command: `curl -H "Authorization: token ${TOKEN}" https://api.github.com/user` },
        { cwd: project, id: 'tu-p5' },
      ),
    );
    const asked = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-p5');
    const { page, context, problems } = await phoneFor(asked.requestId);
    expect(await page.getByTestId('phone-command').textContent()).toContain('ghp_…[masked]');
    expect(await page.getByTestId('phone-edit-text').inputValue()).toContain('ghp_…[masked]');
    expect(await page.content()).not.toContain('PAGETOKEN');
    await page.getByTestId('phone-deny').click();
    await page.getByTestId('phone-decided').waitFor();
    expect(await page.content()).not.toContain('PAGETOKEN');
    expect((await running).stdout).toContain('deny');
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('offers no edit for an agent that cannot run one; an edit POST without the page’s form token decides nothing', async () => {
    const admin = await ctx.daemon.admin();
    // Cursor's hooks take no edited input.
    const agent = await ctx.daemon.agent('cursor', project);
    const cursor = agent.gate({
      client: 'cursor',
      event: 'beforeShellExecution',
      tool: 'Shell',
      input: { command: 'git push origin main' },
      toolUseId: 'tu-p4',
      cwd: project,
      wait: true,
    });
    const other = await waitForPending(admin, (r) => r.dedupeKey === 'cursor:tu-p4');
    const phone = await phoneFor(other.requestId);
    expect(await phone.page.getByTestId('phone-edit').count()).toBe(0);
    await phone.context.close();
    // Edits posted straight to the link: no form token, or one for a request whose agent
    // cannot take an edit. Neither decides.
    const post = (fields: Record<string, string>) =>
      fetch(phone.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      });
    const forged = await post({ decision: 'approve', edit: 'git push origin feature' });
    expect(forged.status).toBe(403);
    const html = await (await fetch(phone.url)).text();
    const form = /name="form" value="([^"]+)"/.exec(html)![1]!;
    const cannot = await post({ decision: 'approve', form, edit: 'git push origin feature' });
    expect(cannot.status).toBe(403);
    expect((await admin.call('request.get', { requestId: other.requestId })).request.status).toBe(
      'pending',
    );
    await admin.call('decide', { requestId: other.requestId, decision: 'deny', reason: 'done' });
    expect((await cursor).outcome).toBe('deny');
  }, 90_000);
});
