import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { dashboardForFile, SCREENSHOTS } from './harness';

// The settings view is generated from the zod settings schema: sections, labels and help text
// from its metadata, widgets from its types. A new user once met 4,300 px of raw JSON boxes.

const ctx = dashboardForFile();

/** Records of objects have no better widget than JSON; every other setting has one. */
/** Fields edited as raw JSON: none — records of objects have a table editor. */
const JSON_FIELDS: string[] = [];

describe('the settings form in the dashboard', () => {
  it('shows sections, labels and help from the schema, real widgets, and saves', async () => {
    const { context, page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.daemon.url}&view=settings`);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    await page.getByTestId('settings-section-guards').waitFor();

    for (const title of ['Requests', 'Budgets', 'Notifications', 'Breakers and guards'])
      await page.getByRole('heading', { name: title, exact: true }).waitFor();
    await page.getByLabel('Default timeout (seconds)').waitFor();
    expect(await page.locator('#setting-requests-defaultTimeoutMs-help').textContent()).toMatch(
      /timed_out/,
    );
    expect(
      await page.getByTestId('setting-notifications-quietHours-start').getAttribute('type'),
    ).toBe('time');
    expect(
      await page
        .getByTestId('setting-notifications-channels-email-minUrgency')
        .evaluate((e) => e.tagName),
    ).toBe('SELECT');
    const textareas = await page
      .locator('.settings-view textarea')
      .evaluateAll((all) => all.map((e) => e.id));
    expect(textareas.sort()).toEqual(JSON_FIELDS);
    const height = await page.evaluate<number>('document.documentElement.scrollHeight');
    console.log(`settings page height: ${height} px at 1280 px wide`);
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-form.png'), fullPage: true });

    // A number, and an optional cap that is written with its parent object.
    await page.getByTestId('setting-budgets-perDayUsd').fill('75');
    await page.getByTestId('setting-budgets-perAgent-perDayUsd').fill('5');
    await page.getByTestId('save-budgets').click();
    await page.getByTestId('notices').filter({ hasText: 'Saved budgets settings' }).waitFor();
    // A number and a boolean in another section.
    await page.getByTestId('setting-guards-run-maxRetries').fill('7');
    await page.getByTestId('setting-guards-stuck-enabled').uncheck();
    await page.getByTestId('save-guards').click();
    await page
      .getByTestId('notices')
      .filter({ hasText: 'Saved breakers and guards settings' })
      .waitFor();

    const admin = await ctx.daemon.admin();
    const read = async (key: string) => (await admin.call('settings.get', { key })).value;
    expect(await read('budgets.perDayUsd')).toBe(75);
    expect(await read('budgets.perAgent')).toEqual({ perDayUsd: 5 });
    expect(await read('guards.run.maxRetries')).toBe(7);
    expect(await read('guards.stuck.enabled')).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
