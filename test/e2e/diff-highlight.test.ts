import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { untilEvent } from '../support/events';
import { dashboardForFile, SCREENSHOTS } from './harness';

// The diff's syntax highlighting (highlight.js) on the dashboard, wide (side by side) and
// narrow (unified), and on the phone page: the code is coloured by its file's language, and
// what an agent wrote stays text. A file holding `</span>`, `<script>` and an onerror image
// renders those characters, and none of them becomes an element or runs.

const ctx = dashboardForFile();
const HOSTILE = [
  'export const banner = "</span><script>window.pwned = 1</script>";',
  '// <img src=x onerror="window.pwned = 2"> </pre></span>',
];
const INSERTED =
  'export const footer = \'</span></span><b id="injected">bold</b><script>window.pwned = 3</script>\';';

let root: string;
let project: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gh-e2e-highlight-'));
  project = join(root, 'site');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(
    join(project, 'src', 'banner.ts'),
    [...HOSTILE, 'export const n = 1;', ''].join('\n'),
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What the page shows of the diff: highlighted tokens, and no element an agent's text made. */
async function expectHighlightedAsText(page: Page, selector: string): Promise<void> {
  const diff = page.locator(selector).first();
  await diff.waitFor({ state: 'attached' });
  const text = (await diff.textContent()) ?? '';
  for (const line of [...HOSTILE, INSERTED]) expect(text).toContain(line);
  expect(await diff.locator('.hljs-keyword').count()).toBeGreaterThan(0);
  expect(await diff.locator('.hljs-string').count()).toBeGreaterThan(0);
  expect(await diff.locator('.hljs-comment').count()).toBeGreaterThan(0);
  expect(await diff.locator('script, img, b, #injected').count()).toBe(0);
  expect(await page.locator('#injected').count()).toBe(0);
  expect(await page.evaluate('window.pwned')).toBeUndefined();
}

describe('the diff is syntax-highlighted as text', () => {
  it('on the dashboard, side by side and unified, and on the phone page', async () => {
    const admin = await ctx.daemon.admin();
    const agent = await ctx.daemon.agent('claude-code', project);
    await agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Edit',
      input: {
        file_path: 'src/banner.ts',
        old_string: 'export const n = 1;',
        new_string: `export const n = 2;\n${INSERTED}`,
      },
      toolUseId: 'tu-hl',
      cwd: project,
      wait: false,
    });
    const { requestId } = await waitForPending(admin, 'edit_file');
    await untilEvent(
      admin,
      (e) => e.type === 'request.picture' && e.requestId === requestId,
      async () =>
        (await admin.call('request.get', { requestId })).request.picture ? true : undefined,
    );

    for (const [width, selector, shot] of [
      [1280, '[data-testid=picture-diff-split]', 'diff-highlight-1280.png'],
      [700, '[data-testid=picture-diff]', 'diff-highlight-700.png'],
    ] as const) {
      const { context, page, problems } = await openPage(ctx.browser, { width, height: 900 });
      try {
        await page.goto(ctx.daemon.url);
        await page.getByTestId('pending-open').first().click();
        await page.locator(selector).first().waitFor();
        expect(await page.locator(selector).first().isVisible()).toBe(true);
        await expectHighlightedAsText(page, selector);
        await page.getByTestId('request-detail').screenshot({ path: join(SCREENSHOTS, shot) });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }

    const { url } = await admin.call('request.link', { requestId, channel: 'sms' });
    const phone = await openPage(ctx.browser, { width: 390, height: 844 });
    try {
      await phone.page.goto(url);
      await phone.page.getByTestId('phone-picture').waitFor();
      await expectHighlightedAsText(phone.page, '[data-testid=phone-file] pre');
      await phone.page.screenshot({
        path: join(SCREENSHOTS, 'phone-diff-highlight-390.png'),
        fullPage: true,
      });
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
