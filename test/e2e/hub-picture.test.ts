import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GatehouseClient } from '../../clients/sdk/client';
import type { RequestRecord } from '../../shared/domain';
import { waitForPending } from '../support/daemon';
import { hubRequestRow } from '../support/hub-page';
import { hubWithMachineForFile, SCREENSHOTS } from './harness';

const SECRET = 'AKIAIOSFODNN7EXAMPLE';

/**
 * The request picture on the team dashboard: a Claude Code Edit on a joined machine is filed,
 * the machine computes its picture (the diff against the file on disk, secrets masked) and
 * publishes it after the request; the hub's request view shows it with the machine
 * dashboard's own components. The agent cannot choose what it shows: a picture it sends along
 * with its call is not the one published, and a secret in its edit stays masked.
 */
describe('the request picture on the team dashboard', () => {
  const stage = hubWithMachineForFile({
    agent: 'claude-code',
    prepareProject: (project) => {
      mkdirSync(join(project, 'src'), { recursive: true });
      writeFileSync(
        join(project, 'src', 'payment.ts'),
        'export function pay(cents: number) {\n  return charge(cents);\n}\n',
      );
    },
  });
  let annToken: string;

  beforeAll(async () => {
    annToken = await stage.hub.person('ann-cli');
  });

  /** The request as the hub holds it, once its picture arrived. */
  async function onHubWithPicture(requestId: string): Promise<RequestRecord> {
    const body = await stage.hub.requestWhen(
      requestId,
      annToken,
      (r) => (r.body.request as RequestRecord | undefined)?.picture !== undefined,
    );
    return body.request as RequestRecord;
  }

  it("shows the machine's picture of an Edit, masked as on the machine, never the agent's", async () => {
    const { agent, admin, project, watched } = stage;
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
    await hubRequestRow(page, requestId).getByTestId('hub-request-open').click();
    const file = page.getByTestId('hub-request-detail').getByTestId('picture-file');
    await file.waitFor();
    expect(await file.textContent()).toContain('src/payment.ts');
    expect(await file.textContent()).toContain('charge(cents + 30)');
    expect(await page.getByTestId('hub-request-detail').textContent()).not.toContain(SECRET);
    await page.screenshot({ path: join(SCREENSHOTS, 'hub-request-picture.png') });
    expect(watched.problems).toEqual([]);
  });
});
