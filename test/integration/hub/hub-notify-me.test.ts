import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/daemon';
import { TestHub } from '../../support/hub';

/**
 * `gatehouse hub notify-me URL`: a person sets, with their personal token, where a real hub
 * tells them and when it reminds them; the hub keeps it (any replica reads it from the
 * database), refuses a viewer, and refuses what does not fit the schema.
 */
describe('gatehouse hub notify-me', () => {
  let hub: TestHub;
  let dir: string;
  let ann: NodeJS.ProcessEnv;
  let vic: NodeJS.ProcessEnv;

  beforeAll(async () => {
    hub = await TestHub.start();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-notify-me-'));
    const base = { ...process.env, GATEHOUSE_HOME: join(dir, 'home') };
    ann = { ...base, GATEHOUSE_HUB_TOKEN: await hub.person('ann') };
    vic = { ...base, GATEHOUSE_HUB_TOKEN: await hub.person('vic', 'viewer') };
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sets and shows where the hub tells a person, and when it reminds them', async () => {
    const empty = await runCli(ann, ['hub', 'notify-me', hub.url]);
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual({ prefs: { desktop: false, newRequests: true } });
    const set = await runCli(ann, [
      'hub',
      'notify-me',
      hub.url,
      '--ntfy-topic',
      'ann-gates',
      '--no-new-requests',
      '--remind-after',
      '15',
      '--desktop',
    ]);
    expect(set.code).toBe(0);
    const shown = await runCli(ann, ['hub', 'notify-me', hub.url]);
    expect(JSON.parse(shown.stdout)).toEqual({
      prefs: {
        channel: { kind: 'ntfy', topic: 'ann-gates' },
        desktop: true,
        newRequests: false,
        remindAfterMinutes: 15,
      },
    });
  });

  it('refuses a viewer, two channels at once and a channel that does not fit', async () => {
    const viewer = await runCli(vic, ['hub', 'notify-me', hub.url, '--remind-after', '5']);
    expect(viewer.code).toBe(1);
    expect(viewer.stderr).toContain('vic is a viewer: the hub notifies who may decide');
    const two = await runCli(ann, [
      'hub',
      'notify-me',
      hub.url,
      '--ntfy-topic',
      'a',
      '--email',
      'ann@example.com',
    ]);
    expect(two.code).toBe(4);
    expect(two.stderr).toContain('choose one of --ntfy-topic, --email, --webhook');
    const bad = await runCli(ann, ['hub', 'notify-me', hub.url, '--webhook', 'file:///etc/passwd']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('expected an http(s) URL');
    // Nothing of it was kept.
    const shown = await runCli(ann, ['hub', 'notify-me', hub.url]);
    expect(JSON.parse(shown.stdout).prefs.channel).toEqual({ kind: 'ntfy', topic: 'ann-gates' });
  });
});
