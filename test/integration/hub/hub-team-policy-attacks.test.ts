import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { generateEd25519, signText } from '../../../shared/node/hub-keys';
import { teamPolicyText, type TeamPolicyBundle } from '../../../shared/policy/team-policy';
import type { TestDaemon } from '../../support/daemon';
import { waitForLink, type TestHub } from '../../support/hub';
import {
  readHubKey,
  startPostgresHubStage,
  type PostgresHubStage,
} from '../../support/hub-postgres-stage';
import { RogueHub } from '../../support/rogue-hub';

/**
 * What an attacker can do against a machine's team policy: answer at the hub's address (with
 * the real hub key for the link's `ready`, read from its database, so only the bundle's own
 * signature and version stand in the way), or write a bundle into the machine's database.
 * The machine keeps running the version it accepted, audits each refusal, and shows it.
 */
describe('attacks on the team policy bundle (real hub, real daemon)', () => {
  let stage: PostgresHubStage;
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let hubKeyPem: string;
  let published: { version: number; payload: string; signature: string }[];
  let port: number;

  const status = async () => (await admin.call('status', {})).teamPolicy;
  const refusals = async () =>
    (await admin.call('audit.query', { type: 'team_policy.refused' })).events
      .sort((a, b) => a.seq - b.seq)
      .map((e) => e.data);
  const asksPush = async (): Promise<string> => {
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    try {
      return (await agent.classify({ action: 'git_push', command: 'git push' })).rule;
    } finally {
      agent.close();
    }
  };

  /** Waits (outside a test too) until the machine runs `version`. */
  async function untilVersion(version: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await status())?.version !== version) {
      if (Date.now() > deadline) throw new Error(`the machine did not reach version ${version}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    stage = await startPostgresHubStage({
      database: 'team_attacks',
      port: 'fixed',
      beforeJoin: async ({ daemon }) => {
        expect((await daemon.cli(['rules', 'add', 'git_push', '--tier', 'auto'])).code).toBe(0);
      },
    });
    ({ hub, daemon, admin } = stage);
    port = Number(new URL(hub.url).port);
    for (const args of [
      ['add', 'git_push', '--tier', 'ask'],
      ['publish'],
      ['add', 'deploy', '--tier', 'deny'],
      ['publish'],
    ])
      expect((await hub.cli(['policy', ...args])).code).toBe(0);
    await untilVersion(2);
    hubKeyPem = await readHubKey(stage.databaseUrl);
    const client = new pg.Client({ connectionString: stage.databaseUrl });
    await client.connect();
    published = (
      await client.query<{ version: number; payload: string; signature: string }>(
        'SELECT version, payload, signature FROM team_policy_bundles ORDER BY version',
      )
    ).rows;
    await client.end();
    await hub.signal('SIGKILL');
    await waitForLink(daemon, false);
  }, 120_000);
  afterAll(() => stage?.stop());

  it('refuses a bundle signed by another key and an older version, and keeps its own', async () => {
    const rogue = await RogueHub.start(port, hubKeyPem);
    try {
      await expect.poll(() => rogue.linked, { timeout: 40_000, interval: 200 }).toBe(true);
      // The machine told the hub which version it runs.
      const auth = rogue.received.find((m) => m.t === 'auth');
      expect(auth).toMatchObject({ teamPolicyVersion: 2 });
      // A newer version without rules, signed by another key: it would lift the team's ask.
      const forged: TeamPolicyBundle = { v: 1, version: 9, publishedAt: Date.now(), rules: [] };
      const payload = JSON.stringify(forged);
      rogue.send({
        t: 'team_policy',
        payload,
        sig: signText(generateEd25519().privateKeyPem, teamPolicyText(payload)),
      });
      // The real hub's version 1, signed by the real key: a rollback.
      rogue.send({
        t: 'team_policy',
        payload: published[0]!.payload,
        sig: published[0]!.signature,
      });
      await expect
        .poll(() => rogue.received.filter((m) => m.t === 'team_policy_answer'), { timeout: 15_000 })
        .toEqual([
          expect.objectContaining({
            outcome: 'refused',
            detail: 'not signed by the pinned hub key',
          }),
          expect.objectContaining({
            outcome: 'refused',
            detail: 'version 1 is not newer than version 2, which this machine runs',
          }),
        ]);
      expect(await refusals()).toEqual([
        expect.objectContaining({ reason: 'bad_signature', running: 2 }),
        expect.objectContaining({ reason: 'not_newer', version: 1, running: 2 }),
      ]);
      expect((await status())?.version).toBe(2);
      expect(await asksPush()).toMatch(/^team:v2:tr-/);
      // Shown: status names the refusal.
      expect((await daemon.cli(['status'])).stdout).toMatch(
        /Team policy: version 2 .*REFUSED a bundle at .*: not_newer: version 1 is not newer/,
      );
    } finally {
      await rogue.stop();
    }
  }, 90_000);

  it('a bundle written into the database is checked again at start, and refused', async () => {
    await daemon.signal('SIGTERM');
    const forged: TeamPolicyBundle = { v: 1, version: 50, publishedAt: Date.now(), rules: [] };
    const payload = JSON.stringify(forged);
    const other = generateEd25519();
    const db = new Database(join(daemon.home, 'gatehouse.db'));
    // Whoever writes the row writes the key it claims too; the pinned key decides.
    db.prepare('UPDATE team_policy SET version = ?, payload = ?, signature = ?, hub_key = ?').run(
      50,
      payload,
      signText(other.privateKeyPem, teamPolicyText(payload)),
      other.publicKey,
    );
    db.close();
    await daemon.launch(['--no-dashboard']);
    admin.close();
    admin = stage.admin = await daemon.admin();
    const s = await status();
    expect(s?.version).toBe(0);
    expect(s?.lastRefused?.reason).toContain('bad_signature');
    const last = (await refusals()).at(-1);
    expect(last).toMatchObject({ reason: 'bad_signature', version: 50 });
    // The hub comes back: the machine (at version 0) is sent the newest, and runs it again.
    await hub.launch();
    await expect.poll(async () => (await status())?.version, { timeout: 40_000 }).toBe(2);
    expect(await asksPush()).toMatch(/^team:v2:tr-/);
  }, 120_000);
});
