import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { ruleOfferId } from '../../../main/hub-link/rule-offers';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import { readMigrations } from '../../../main/hub/store/migrate';
import { openPgDatabase } from '../../../main/hub/store/pg-database';
import { openPgliteDatabase } from '../../../main/hub/store/pglite-database';
import { storePublished } from '../../../main/hub/store/requests-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import type { RequestRecord } from '../../../shared/domain';
import { insertDecision } from '../../../main/hub/store/decisions-repo';
import { decisionText, HubDecision } from '../../../shared/hub-protocol';
import { RuleOffers } from '../../../shared/hub-rule-offers';
import { signText } from '../../../shared/node/hub-keys';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon, waitForPending } from '../../support/daemon';
import { startRecordingService, type ServiceHit } from '../../support/recording-service';
import { freePort } from '../../support/free-port';
import { joinHub, TestHub, waitForLink } from '../../support/hub';
import { HUB_BACKENDS } from '../../support/hub-databases';
import { hubTableTexts } from '../../support/hub-tables';
import { TestPostgres } from '../../support/postgres';

const run = promisify(execFile);

const updatedInputOf = (stdout: string): Record<string, unknown> | undefined =>
  (JSON.parse(stdout.trim()) as { hookSpecificOutput: { updatedInput?: Record<string, unknown> } })
    .hookSpecificOutput.updatedInput;

const GH = 'ghp_UPGRADELEAKUPGRADELEAKUPGRADE01234';
const AWS = 'wJalrXUtnFEMIK7MDENGbPxRfiUPGRADELEAKEY';
const DB_PASSWORD = 'pwUPGRADELEAK9';
const LEAK = /UPGRADELEAK/;
/** Each secret as the machine's copy shows it, and the secret an older machine sent instead. */
const UNMASKED: readonly [string, string][] = [
  ['ghp_…[masked]', GH],
  ['wJal…[masked]', AWS],
  ['app:…[masked]@', `app:${DB_PASSWORD}@`],
];

/**
 * A hub upgraded from before the masking: a real daemon and the real Claude Code hook file a
 * call whose command holds secrets; its hub's database is then put back the way an older hub
 * stored it (the request and its rule offers as an older machine sent them, unmasked, and
 * the job not yet owed: migration 015 undone). The hub, started again, masks what it stored
 * once before it serves: no table holds a secret, the ids are those the machine holds, and
 * "always" decided on the hub from the scrubbed request still reaches the machine, whose
 * agent's call then really runs with its real token, and runs unasked the next time. A
 * decision the older hub made on the unmasked text and had not delivered yet is masked and
 * signed again, and still runs on the machine. On the embedded database and on a real
 * PostgreSQL.
 */
describe.each(HUB_BACKENDS)('a hub upgraded from before the masking, on %s', (backend) => {
  let pg: TestPostgres | undefined;
  let databaseUrl: string | undefined;
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let ann: string;
  let project: string;
  let service: Awaited<ReturnType<typeof startRecordingService>> | undefined;
  let serviceUrl: string;
  let hits: ServiceHit[] = [];

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'gatehouse-hub-upgrade-'));
    service = await startRecordingService();
    serviceUrl = service.url;
    hits = service.hits;
    if (backend === 'postgres') {
      pg = await TestPostgres.start();
      databaseUrl = pg.createDatabase('upgrade');
    }
    // A fixed port: the machine links to the same address after each restart.
    hub = await TestHub.start({ port: await freePort(), ...(databaseUrl ? { databaseUrl } : {}) });
    daemon = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await daemon.admin();
    ann = await hub.person('ann');
    await joinHub(daemon, hub, 'laptop');
  }, 120_000);
  afterAll(async () => {
    admin?.close();
    await daemon?.stop();
    await hub?.stop();
    service?.close();
    pg?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  /** The hub's database, opened as it is (no migration), while the hub is stopped. */
  const openStopped = (): Promise<SqlDatabase> =>
    databaseUrl ? openPgDatabase(databaseUrl) : openPgliteDatabase(join(hub.home, 'hub', 'data'));

  /** The request's record and rule offers as an older machine sent them: its secrets in. */
  async function unmaskRequest(db: SqlDatabase, requestId: string): Promise<void> {
    let record = 'record::text';
    let offers = 'rule_offers::text';
    const params: string[] = [requestId];
    for (const [shown, secret] of UNMASKED) {
      params.push(shown, secret);
      const a = `$${params.length - 1}`;
      const b = `$${params.length}`;
      record = `replace(${record}, ${a}, ${b})`;
      offers = `replace(${offers}, ${a}, ${b})`;
    }
    await db.query(
      `UPDATE requests SET record = ${record}::jsonb, rule_offers = ${offers}::jsonb WHERE request_id = $1`,
      params,
    );
  }

  function onHub(requestId: string, status = 'pending'): Promise<Record<string, unknown>> {
    return hub.requestWhen(
      requestId,
      ann,
      (r) => (r.body.request as { status?: string } | undefined)?.status === status,
    );
  }

  it('masks what it stored before, keeps the ids, and "always" from it still runs the call', async () => {
    // One call (so one rule covers it), with the three secrets in it.
    const command = `curl -sf -X POST --oauth2-bearer ${GH} -H "X-Db: postgres://app:${DB_PASSWORD}@db.internal/shop" -d "aws_secret_access_key=${AWS}" ${serviceUrl}/deploy`;
    // The agent waits through the hub's restart for a person's answer.
    const call = (id: string) =>
      runClaudeHook(
        { ...daemon.env, GATEHOUSE_HOOK_WAIT_MS: '120000' },
        preToolUse('Bash', { command }, { cwd: project, id, session: 'cc-upgrade' }),
      );
    const answer = call('tu-upgrade-1');
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-upgrade-1');
    const shownBefore = await onHub(filed.requestId);
    const offerIds = RuleOffers.parse(shownBefore.offers).map((o) => o.id);
    expect(offerIds.length).toBeGreaterThan(0);

    // The hub stopped, its database put back the way an older hub kept the same request.
    await hub.signal('SIGTERM');
    const db = await openStopped();
    try {
      await unmaskRequest(db, filed.requestId);
      await undoJobMigration(db);
      // What an older machine sent: its own command, and its rule offers, as they are.
      const [old] = await db.query<{ command: string; offers: string }>(
        "SELECT record->>'command' AS command, rule_offers::text AS offers FROM requests WHERE request_id = $1",
        [filed.requestId],
      );
      expect(old!.command).toBe(command);
      expect(old!.offers).toContain(GH);
    } finally {
      await db.close();
    }

    await hub.launch();
    expect(hub.output).toContain(
      'gatehouse hub: stored secrets masked: 1 requests, 0 decisions, 0 shadow examples, 0 desktop notices, 0 audit entries from before the chain',
    );
    // Masked before it served: the masking's lines come before the one that says it listens.
    expect(hub.output.indexOf('stored secrets masked')).toBeLessThan(
      hub.output.indexOf('listening on'),
    );
    await waitForLink(daemon, true, 30_000);
    const shownAfter = await onHub(filed.requestId);
    expect(JSON.stringify(shownAfter)).not.toMatch(LEAK);
    expect(RuleOffers.parse(shownAfter.offers).map((o) => o.id)).toEqual(offerIds);
    expect((shownAfter.request as { command: string }).command).toBe(
      (shownBefore.request as { command: string }).command,
    );

    // The rule the machine would save: the first offer's id is its digest.
    const preview = await admin.call('rules.preview', { requestId: filed.requestId });
    expect(offerIds[0]).toBe(ruleOfferId(preview.draft));

    // A person decides "always" on the scrubbed request: the machine saves its own unmasked
    // rule, and the agent's call runs with the real token.
    const decided = await hub.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId: filed.requestId, decision: 'approve', scope: 'always' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect((await answer).decision).toBe('allow');
    await run('bash', ['-c', command], { cwd: project });
    expect(hits).toEqual([
      { path: '/deploy', authorization: `Bearer ${GH}`, body: `aws_secret_access_key=${AWS}` },
    ]);
    const rules = (await admin.call('rules.list', {})).rules;
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ ...preview.draft, tier: 'auto', source: 'decision' });
    expect(JSON.stringify(rules[0])).toContain(GH);
    expect((await call('tu-upgrade-2')).decision).toBe('allow');
    await onHub(filed.requestId, 'approved');

    // No table holds a secret: the request, its offers, the decision and the audit chain.
    await hub.signal('SIGTERM');
    const after = await openStopped();
    try {
      const tables = await hubTableTexts(after);
      expect(tables.size).toBeGreaterThan(10);
      for (const [table, text] of tables) expect(text, table).not.toMatch(LEAK);
      expect(tables.get('requests')).toContain('ghp_…[masked]');
    } finally {
      await after.close();
    }
    await hub.launch();
    const verified = await hub.cli(['audit', 'verify', '--json']);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(hub.output).not.toContain('stored secrets masked');
  }, 180_000);

  it('a decision an older hub made on the unmasked text, not yet delivered, is masked, signed again, and still runs', async () => {
    const command = [
      `export GH_TOKEN=${GH}`,
      `export AWS_SECRET_ACCESS_KEY=${AWS}`,
      `curl -sf --oauth2-bearer "$GH_TOKEN" -d "aws=$AWS_SECRET_ACCESS_KEY" ${serviceUrl}/release`,
    ].join('\n');
    const answer = runClaudeHook(
      { ...daemon.env, GATEHOUSE_HOOK_WAIT_MS: '120000' },
      preToolUse(
        'Bash',
        { command },
        { cwd: project, id: 'tu-upgrade-edit', session: 'cc-upgrade' },
      ),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-upgrade-edit');
    await onHub(filed.requestId);

    // Stopped before it could deliver it: the old hub's decision, an edit of the command as
    // it showed it then (the secrets in it), signed with the hub's key, still unanswered.
    await hub.signal('SIGTERM');
    const db = await openStopped();
    const edited = command.replace('/release', '/release/v2');
    try {
      await unmaskRequest(db, filed.requestId);
      const [key] = await db.query<{ private_key: string }>(
        'SELECT private_key FROM hub_identity WHERE id = 1',
      );
      const [machine] = await db.query<{ machine_id: string }>(
        "SELECT machine_id FROM machines WHERE name = 'laptop'",
      );
      const payload = JSON.stringify(
        HubDecision.parse({
          v: 2,
          decisionId: randomUUID(),
          machineId: machine!.machine_id,
          requestId: filed.requestId,
          decision: 'approve',
          reason: `ship it with ${GH}`,
          terms: { edit: { input: { command: edited } } },
          person: 'ann',
          issuedAt: Date.now(),
          expiresAt: Date.now() + 3_600_000,
        }),
      );
      await insertDecision(db, {
        decisionId: (JSON.parse(payload) as { decisionId: string }).decisionId,
        machineId: machine!.machine_id,
        requestId: filed.requestId,
        person: 'ann',
        payload,
        signature: signText(key!.private_key, decisionText(payload)),
        createdAt: Date.now(),
      });
      await undoJobMigration(db);
    } finally {
      await db.close();
    }

    await hub.launch();
    expect(hub.output).toContain(
      'gatehouse hub: stored secrets masked: 1 requests, 1 decisions, 0 shadow examples',
    );
    // Delivered when the machine links: the machine puts its secrets back on the lines the
    // edit kept, and the agent's call runs the edit with them.
    const ran = updatedInputOf((await answer).stdout);
    expect(ran).toEqual({ command: edited });
    await run('bash', ['-c', String(ran!.command)], { cwd: project });
    expect(hits.at(-1)).toEqual({
      path: '/release/v2',
      authorization: `Bearer ${GH}`,
      body: `aws=${AWS}`,
    });
    await onHub(filed.requestId, 'approved');

    await hub.signal('SIGTERM');
    const after = await openStopped();
    try {
      for (const [table, text] of await hubTableTexts(after)) expect(text, table).not.toMatch(LEAK);
    } finally {
      await after.close();
    }
    await hub.launch();
  }, 180_000);
});

/**
 * The hub process killed outright while it masks (between or in a batch): started again, it
 * goes on from the last batch that committed, not from the start, and finishes. Thousands of
 * requests an older hub stored, written through the hub's own repository.
 */
describe.each(HUB_BACKENDS)('a hub killed while it masks what it stored, on %s', (backend) => {
  const ROWS = 12_000;
  let pg: TestPostgres | undefined;
  let databaseUrl: string | undefined;
  let hub: TestHub;

  beforeAll(async () => {
    if (backend === 'postgres') {
      pg = await TestPostgres.start();
      databaseUrl = pg.createDatabase('killed');
    }
    hub = await TestHub.start(databaseUrl ? { databaseUrl } : {});
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
    pg?.stop();
  });

  const openStopped = (): Promise<SqlDatabase> =>
    databaseUrl ? openPgDatabase(databaseUrl) : openPgliteDatabase(join(hub.home, 'hub', 'data'));

  it('resumes after the last committed batch and finishes', async () => {
    await hub.signal('SIGTERM');
    const db = await openStopped();
    try {
      await registerMachine(db, { machineId: 'm-old', name: 'old', publicKey: 'pk', now: 1 });
      for (let from = 0; from < ROWS; from += 1000)
        await db.transaction((tx) =>
          storePublished(
            tx,
            'm-old',
            Array.from({ length: 1000 }, (_, k) => ({
              seq: from + k + 1,
              kind: 'request.asked' as const,
              request: oldRequest(from + k),
            })),
            1,
          ),
        );
      await undoJobMigration(db);
    } finally {
      await db.close();
    }

    // Killed at its first progress line: a batch or more committed, most of the table not.
    const first = hub.launch();
    await expect
      .poll(() => /masking stored secrets: requests \d+ of/.test(hub.output), { timeout: 60_000 })
      .toBe(true);
    hub.proc!.kill('SIGKILL');
    await expect(first).rejects.toThrow(/hub exited/);
    const killedOutput = hub.output;
    expect(killedOutput).not.toContain('stored secrets masked');

    await hub.launch();
    const progress = [...hub.output.matchAll(/requests (\d+) of (\d+)/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    // Its first batch after the restart is past the first batch before it: resumed.
    expect(progress[0]![0]).toBeGreaterThan(500);
    expect(progress[0]![0]).toBeLessThan(ROWS);
    expect(progress.at(-1)).toEqual([ROWS, ROWS]);
    expect(hub.output).toContain(`gatehouse hub: stored secrets masked: ${ROWS} requests`);
    await hub.signal('SIGTERM');
    const after = await openStopped();
    try {
      expect((await hubTableTexts(after)).get('requests')).not.toMatch(LEAK);
      const [n] = await after.query<{ n: string | number }>('SELECT count(*) AS n FROM requests');
      expect(Number(n!.n)).toBe(ROWS);
    } finally {
      await after.close();
    }
    await hub.launch();
    expect(hub.output).not.toContain('masking');
  }, 300_000);
});

/**
 * The database as it was before the migration that owes the job (found by its name, whatever
 * its number): the job not owed, its table gone, and the later migrations that change that
 * table not applied either.
 */
async function undoJobMigration(db: SqlDatabase): Promise<void> {
  const undone = readMigrations().filter(
    (m) => m.name === 'stored_secrets_job' || m.sql.includes('hub_data_jobs'),
  );
  for (const m of undone)
    await db.query('DELETE FROM hub_migrations WHERE version = $1', [m.version]);
  await db.query('DROP TABLE hub_data_jobs');
}

/** A request as an older machine published it, its secrets as they were. */
function oldRequest(i: number): RequestRecord {
  const command = `curl -sf --oauth2-bearer ${GH} -d "aws_secret_access_key=${AWS}" https://api.example.com/${i}`;
  return {
    requestId: `req-old-${String(i).padStart(6, '0')}`,
    sessionId: 'ses-old',
    agent: 'builder',
    project: '/work/p',
    action: 'shell.exec',
    description: command,
    urgency: 'normal',
    command,
    context: { toolInput: { command } },
    status: 'pending',
    tier: 'ask',
    rule: 'default:shell',
    ruleReason: 'asks',
    createdAt: new Date(1_800_000_000_000 + i).toISOString(),
  };
}
