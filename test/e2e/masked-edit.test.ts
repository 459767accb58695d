import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preToolUse, runClaudeHook } from '../support/claude-hook';
import { openPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { dashboardForFile, SCREENSHOTS } from './harness';

// A Claude Code Write whose content holds an API key, decided on the dashboard: the raw JSON
// view and the input offered to edit show it masked, no response the page reads holds it, and
// the write edited to another path still reaches the real hook with the key in its content.

const ctx = dashboardForFile();
let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'gh-e2e-mask-'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const KEY = 'ghp_REALTOKENREALTOKENREALTOKEN1234';

describe('a secret in the input kept for editing, on the dashboard', () => {
  it('is masked in the raw JSON and the editor; the edited write runs with it', async () => {
    const admin = await ctx.daemon.admin();
    const { page, context, problems } = await openPage(ctx.browser, { width: 1280, height: 900 });
    // Every response the page reads, to check that none carries the key.
    const bodies: string[] = [];
    page.on('response', (r) => {
      if (!r.headers()['content-type']?.includes('event-stream'))
        r.text().then(
          (t) => bodies.push(t),
          () => undefined,
        );
    });
    await page.goto(ctx.daemon.url);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();

    const file = join(project, 'deploy.sh');
    const content = `#!/bin/sh\nexport GITHUB_TOKEN=${KEY}\ngh release create v1\n`;
    const write = runClaudeHook(
      ctx.daemon.daemon.env,
      preToolUse('Write', { file_path: file, content }, { cwd: project, id: 'tu-mask-e1' }),
    );
    const asked = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-mask-e1');
    await page.goto(`${ctx.daemon.origin}/#request=${asked.requestId}`);
    await page
      .locator(`[data-testid=request-detail][data-request-id=${asked.requestId}]`)
      .waitFor();
    await page.locator('body').press('r');
    const raw = page.getByTestId('detail-context-raw');
    await raw.waitFor();
    const rawJson = JSON.parse((await raw.textContent()) ?? '') as {
      toolInput: { content: string };
    };
    expect(rawJson.toolInput.content).toContain('GITHUB_TOKEN=ghp_…[masked]');

    await page.getByTestId('edit-open').click();
    const editor = page.getByTestId('edit-command');
    const shown = JSON.parse(await editor.inputValue()) as { file_path: string; content: string };
    expect(shown.content).toBe(content.replace(KEY, 'ghp_…[masked]'));
    await page.getByTestId('edit-masked-note').waitFor();
    const renamed = join(project, 'release.sh');
    await editor.fill(JSON.stringify({ ...shown, file_path: renamed }, null, 2));
    await page
      .getByTestId('decision-panel')
      .screenshot({ path: join(SCREENSHOTS, 'edit-masked-input-1280.png') });
    expect(await page.content()).not.toContain('REALTOKEN');
    await page.getByTestId('edit-approve-button').click();
    const out = JSON.parse((await write).stdout.trim()) as {
      hookSpecificOutput: { updatedInput?: Record<string, unknown> };
    };
    expect(out.hookSpecificOutput.updatedInput).toEqual({ file_path: renamed, content });
    // The page has the decided request (from its event stream) once the edit panel is gone.
    await page.getByTestId('edit-approve').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await page.content()).not.toContain('REALTOKEN');
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).not.toContain('REALTOKEN');
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
