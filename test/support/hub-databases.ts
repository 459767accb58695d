import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openHubDatabase } from '../../main/hub/store/open-database';
import type { SqlDatabase } from '../../main/hub/store/sql';
import { TestPostgres } from './postgres';

/** The two places the hub's store runs: the embedded PGlite and a real PostgreSQL server. */
export const HUB_BACKENDS = ['pglite', 'postgres'] as const;
export type HubBackend = (typeof HUB_BACKENDS)[number];

let server: TestPostgres | undefined;
let databases = 0;

/**
 * For the enclosing describe block: one real PostgreSQL server (started once, stopped after),
 * and `fresh(backend)` to open a new, migrated, empty hub database on either backend.
 */
export function hubDatabases(): {
  fresh(backend: HubBackend): Promise<SqlDatabase>;
  server(): TestPostgres;
} {
  const opened: { db: SqlDatabase; dir?: string }[] = [];
  let embedded: SqlDatabase | undefined;
  beforeAll(async () => {
    server ??= await TestPostgres.start();
  }, 60_000);
  afterAll(async () => {
    for (const o of opened) {
      await o.db.close().catch(() => undefined);
      if (o.dir) rmSync(o.dir, { recursive: true, force: true });
    }
    server?.stop();
    server = undefined;
  });
  return {
    async fresh(backend) {
      if (backend === 'postgres') {
        const url = server!.createDatabase(`hub_${process.pid}_${++databases}`);
        const db = await openHubDatabase({ url, dataDir: '' });
        opened.push({ db });
        return db;
      }
      // One embedded database per describe block (starting PGlite takes seconds), emptied
      // for each test: the same clean state as a new one.
      if (!embedded) {
        const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pglite-'));
        embedded = await openHubDatabase({ dataDir: join(dir, 'db') });
        opened.push({ db: embedded, dir });
      } else {
        await embedded.query(
          'TRUNCATE desktop_notices, hub_webhook_allow, team_shadow_records, team_policy_bundles, team_rules, request_votes, request_escalations, decision_rules, person_notified, person_notify, passkeys, passkey_challenges, oidc_identities, oidc_invites, oidc_logins, hub_oidc_config, group_members, hub_groups, audit, hub_audit_checkpoints, machine_audit_checkpoints, machine_audit_keys, decisions, browser_sessions, person_tokens, people, requests, join_codes, hub_notified, hub_notify_config, hub_admin_token, machines, hub_identity',
        );
      }
      return embedded;
    },
    server: () => server!,
  };
}
