import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/daemon';
import { TestHub } from '../../support/hub';

/**
 * `gatehouse hub webhook-allow`: the hub admin lists where people's own webhooks may go, on a
 * real hub; a person's `hub notify-me --webhook` to loopback is refused until it is listed.
 */
describe('gatehouse hub webhook-allow', () => {
  let hub: TestHub;
  let dir: string;
  let ann: NodeJS.ProcessEnv;

  beforeAll(async () => {
    hub = await TestHub.start();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-webhook-allow-'));
    ann = {
      ...process.env,
      GATEHOUSE_HOME: join(dir, 'home'),
      GATEHOUSE_HUB_TOKEN: await hub.person('ann'),
    };
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the list, and a person may name loopback only once it is listed', async () => {
    const empty = await hub.cli(['webhook-allow']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('The webhook allow-list is empty');
    const hook = 'http://127.0.0.1:8089/hook';
    const refused = await runCli(ann, ['hub', 'notify-me', hub.url, '--webhook', hook]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      'webhook refused: 127.0.0.1:8089 resolves to 127.0.0.1, a private, loopback or link-local address',
    );

    const added = await hub.cli(['webhook-allow', 'add', 'http://127.0.0.1:8089', '*.example.com']);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('  http://127.0.0.1:8089\n  *.example.com');
    const shown = await hub.cli(['webhook-allow', 'show', '--json']);
    expect(JSON.parse(shown.stdout)).toEqual({
      entries: ['http://127.0.0.1:8089', '*.example.com'],
    });
    const set = await runCli(ann, ['hub', 'notify-me', hub.url, '--webhook', hook]);
    expect(set.code).toBe(0);
    const elsewhere = await runCli(ann, [
      'hub',
      'notify-me',
      hub.url,
      '--webhook',
      'https://hooks.other.org/x',
    ]);
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.stderr).toContain("hooks.other.org is not on the hub's webhook allow-list");

    const bad = await hub.cli(['webhook-allow', 'add', 'https://a.example.com/path']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('expected an origin');
    const removed = await hub.cli(['webhook-allow', 'remove', '*.example.com']);
    expect(removed.code).toBe(0);
    const missing = await hub.cli(['webhook-allow', 'remove', '*.example.com']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('not on the list: *.example.com');
    // Only the admin token sets it.
    const person = await hub.api('POST', '/api/admin/webhook-allow', {
      token: ann.GATEHOUSE_HUB_TOKEN!,
      body: { entries: ['0.0.0.0/0'] },
    });
    expect(person.status).toBe(401);
    expect(JSON.parse((await hub.cli(['webhook-allow', 'show', '--json'])).stdout)).toEqual({
      entries: ['http://127.0.0.1:8089'],
    });
  });
});
