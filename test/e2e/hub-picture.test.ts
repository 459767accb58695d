import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { GatehouseClient } from '../../clients/sdk/client';
import type { RequestRecord } from '../../shared/domain';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser';
import { TestDaemon, waitForPending } from '../support/daemon';
import { joinHub, TestHub } from '../support/hub';
import { SCREENSHOTS } from './harness';

const SECRET = 'AKIAIOSFODNN7EXAMPLE';

/**
 * The request picture on the team dashboard: a Claude Code Edit on a joined machine is filed,
 * the machine computes its picture (the diff against the file on disk, secrets masked) and
 * publishes it after the request; the hub's request view shows it with the machine
 * dashboard's own components. The agent cannot choose what it shows: a picture it sends along
 * with its call is not the one published, and a secret in its edit stays masked.
 */
describe('the request picture on the team dashboard', () => {
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  let browser: Browser;
  let watched: WatchedPage;
  let root: string;
  let project: string;
  let annToken: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    root = mkdtempSync(join(tmpdir(), 'gatehouse-hub-picture-'));
    project = join(root, 'shop');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'src', 'payment.ts'),
      'export function pay(cents: number) {\n  return charge(cents);\n}\n',
    );
    hub = await TestHub.start();
    daemon = await TestDaemon.start({}, ['--no-dashboard']);
    await joinHub(daemon, hub, 'laptop');
    admin = await daemon.admin();
    agent = await daemon.agent({ agent: 'claude-code', project });
    annToken = await hub.person('ann-cli');
    browser = await launchBrowser();
    watched = await openPage(browser);
    await watched.page.goto(await hub.signInLink('ann', 'approver'));
    await watched.page.getByTestId('hub-app').waitFor();
  }, 240_000);
  afterAll(async () => {
    await watched?.context.close().catch(() => undefined);
    await browser?.close();
    agent?.close();
    admin?.close();
    await daemon?.stop();
    await hub?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** The request as the hub holds it, once its picture arrived. */
  async function onHubWithPicture(requestId: string): Promise<RequestRecord> {
    let found: RequestRecord | undefined;
    await expect
      .poll(
        async () => {
          const r = await hub.api('GET', `/api/requests/one?id=${requestId}`, {
            token: annToken,
          });
          found = (r.body.request as RequestRecord | undefined) ?? undefined;
          return found?.picture !== undefined;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    return found!;
  }

  it("shows the machine's picture of an Edit, masked as on the machine, never the agent's", async () => {
    const forged = {
      files: [{ path: 'README.md', kind: 'modify', added: 1, removed: 0, diff: '+harmless' }],
    };
    // The agent sends a picture of its own, at the top and in its tool input: neither counts.
    const call = {
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Edit',
      input: {
        file_path: 'src/payment.ts',
        old_string: '  return charge(cents);',
        new_string: `  const key = "${SECRET}";\n  return charge(cents + 30);`,
        picture: forged,
      },
      toolUseId: 'tu-edit',
      cwd: project,
      wait: false,
      picture: forged,
    };
    await agent.gate(call as unknown as Parameters<GatehouseClient['gate']>[0]);
    const { requestId } = await waitForPending(admin, 'edit_file');
    let onMachine: RequestRecord | undefined;
    await expect
      .poll(
        async () => {
          onMachine = (await admin.call('request.get', { requestId })).request;
          return onMachine.picture !== undefined;
        },
        { timeout: 20_000 },
      )
      .toBe(true);

    const onHub = await onHubWithPicture(requestId);
    // The same picture as the machine's own dashboard shows: no more, no less.
    expect(onHub.picture).toEqual(onMachine!.picture);
    const text = JSON.stringify(onHub.picture);
    expect(text).toContain('charge(cents + 30)');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('harmless');
    expect(text).not.toContain('README.md');

    const { page } = watched;
    const row = page.locator(`[data-testid="hub-request"][data-request-id="${requestId}"]`);
    await row.getByTestId('hub-request-open').click();
    const file = page.getByTestId('hub-request-detail').getByTestId('picture-file');
    await file.waitFor();
    expect(await file.textContent()).toContain('src/payment.ts');
    expect(await file.textContent()).toContain('charge(cents + 30)');
    expect(await page.getByTestId('hub-request-detail').textContent()).not.toContain(SECRET);
    await page.screenshot({ path: join(SCREENSHOTS, 'hub-request-picture.png') });
    expect(watched.problems).toEqual([]);
  });
});
