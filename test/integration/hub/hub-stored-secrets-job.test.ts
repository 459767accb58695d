import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readMigrations, splitStatements } from '../../../main/hub/store/migrate';
import { openHubDatabase } from '../../../main/hub/store/open-database';
import { ruleOfferId } from '../../../main/hub-link/rule-offers';
import { checkpointHubAudit, verifyHubAudit } from '../../../main/hub/hub-audit-chain';
import { appendAudit } from '../../../main/hub/store/audit-repo';
import {
  answerDecision,
  getDecision,
  insertDecision,
} from '../../../main/hub/store/decisions-repo';
import { queueDesktopNotice } from '../../../main/hub/store/desktop-notices-repo';
import { ensureHubIdentity } from '../../../main/hub/store/identity-repo';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import { getHubRequest, storePublished } from '../../../main/hub/store/requests-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { storeShadowRecords } from '../../../main/hub/store/team-policy-repo';
import { maskStoredSecrets, STORED_SECRETS_JOB } from '../../../main/hub/stored-secrets-job';
import {
  CATCH_UP_WINDOW_MS,
  catchUpStoredSecrets,
  startStoredSecretsCatchUp,
} from '../../../main/hub/stored-secrets-catch-up';
import type { RequestRecord } from '../../../shared/domain';
import { decisionText, HubDecision } from '../../../shared/hub-protocol';
import type { RuleOffer } from '../../../shared/hub-rule-offers';
import { generateEd25519, signText, verifyText } from '../../../shared/node/hub-keys';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { hubTableTexts } from '../../support/hub-tables';

const GH = 'ghp_STOREDLEAKSTOREDLEAKSTOREDLEAK0123';
const AWS = 'wJalrXUtnFEMIK7MDENGbPxRfiSTOREDLEAKEY';
const DB_PASSWORD = 'pwSTOREDLEAK9';
const BEARER = 'opaqueSTOREDLEAK42value';
const LEAK = /STOREDLEAK/;
const COMMAND = [
  `export AWS_SECRET_ACCESS_KEY=${AWS}`,
  `psql postgres://app:${DB_PASSWORD}@db.internal/shop -c 'select 1'`,
  `curl -sf -H "X-Upstream: Bearer ${BEARER}" --oauth2-bearer ${GH} https://api.example.com/x`,
].join('\n');
const T0 = 1_800_000_000_000;
const REQUESTS = 230;
const BATCH = 50;

const clock = { now: () => T0 + 60_000 };

/** A request as a machine from before the masking published it: every field as it was. */
function oldRequest(i: number): RequestRecord {
  return {
    requestId: `req-${String(i).padStart(4, '0')}`,
    sessionId: 'ses-old',
    agent: 'builder',
    project: '/work/p',
    action: 'shell.exec',
    description: `deploy with ${GH}`,
    urgency: 'normal',
    command: COMMAND,
    target: `https://deploy:${DB_PASSWORD}@api.example.com/`,
    paths: [`/tmp/token=${BEARER}`],
    context: { toolInput: { command: COMMAND } },
    picture: { omitted: [`git fetch https://x:${DB_PASSWORD}@git.example.com/r failed`] },
    status: 'pending',
    tier: 'ask',
    rule: 'default:shell',
    ruleReason: 'asks',
    createdAt: new Date(T0 + i).toISOString(),
  };
}

const machineDraft = { action: 'shell.exec', command: COMMAND, project: '/work/p' };
const offer: RuleOffer = {
  id: ruleOfferId(machineDraft),
  draft: machineDraft,
  describe: `shell.exec with command \`${COMMAND}\``,
};

/** A decision ann made on m-old's request, signed by the hub, as an older hub stored it. */
async function oldDecision(
  db: SqlDatabase,
  identity: { privateKeyPem: string },
  d: { decisionId: string; requestId: string; reason: string; terms?: unknown; at: number },
): Promise<void> {
  const payload = JSON.stringify(
    HubDecision.parse({
      v: 2,
      decisionId: d.decisionId,
      machineId: 'm-old',
      requestId: d.requestId,
      decision: 'approve',
      reason: d.reason,
      ...(d.terms !== undefined ? { terms: d.terms } : {}),
      person: 'ann',
      issuedAt: d.at,
      expiresAt: d.at + 86_400_000,
    }),
  );
  await insertDecision(db, {
    decisionId: d.decisionId,
    machineId: 'm-old',
    requestId: d.requestId,
    person: 'ann',
    payload,
    signature: signText(identity.privateKeyPem, decisionText(payload)),
    createdAt: d.at,
  });
}

/**
 * A shadow example of m-old's and a desktop notice of one of its requests to m-desk, each
 * quoting a secret, as an older hub stored them.
 */
async function oldShadowAndNotice(
  db: SqlDatabase,
  o: { shadowId: number; requestId: string; at: number },
): Promise<void> {
  await storeShadowRecords(db, 'm-old', [
    {
      id: o.shadowId,
      at: o.at,
      ruleId: 'tr-aaaa1',
      version: 1,
      action: 'shell.exec',
      would: 'ask',
      actual: 'auto',
      summary: `curl --oauth2-bearer ${GH}`,
      agent: 'builder',
    },
  ]);
  await queueDesktopNotice(db, {
    toMachineId: 'm-desk',
    machineId: 'm-old',
    requestId: o.requestId,
    kind: 'new',
    notice: {
      requestId: o.requestId,
      machine: 'old-laptop',
      title: `shell.exec: export AWS_SECRET_ACCESS_KEY=${AWS}`,
      urgency: 'normal',
      link: `https://hub.example/r/old-laptop/${o.requestId}`,
    },
    now: o.at,
  });
}

/** The job as migration 015 leaves it on a hub from before: owed, not started. */
async function owe(db: SqlDatabase): Promise<void> {
  await db.query(
    `UPDATE hub_data_jobs SET phase = 'requests', after_key = NULL, phase_total = NULL,
       phase_done = 0, counts = '{}', kept = '[]', kept_count = 0, started_at = NULL, done_at = NULL,
       caught_up_to = NULL
     WHERE name = $1`,
    [STORED_SECRETS_JOB],
  );
}

/**
 * What an older hub stored, through the hub's own repositories (which store what they are
 * given: the masking was in front of them), and one audit row from before the chain began.
 */
async function seedOldHub(db: SqlDatabase) {
  const identity = await ensureHubIdentity(db, generateEd25519, T0);
  // Written before migration 010: no link. Later rows are chained after it.
  await db.query(
    `INSERT INTO audit (at, type, machine_id, request_id, data) VALUES ($1, 'decision.refused_by_machine', 'm-old', 'req-0000', $2)`,
    [T0, { detail: `could not run: git push https://${GH}@github.com/o/r` }],
  );
  await registerMachine(db, {
    machineId: 'm-old',
    name: 'old-laptop',
    publicKey: 'pk',
    now: T0,
  });
  await registerMachine(db, { machineId: 'm-desk', name: 'desk', publicKey: 'pk2', now: T0 });
  await db.transaction((tx) =>
    storePublished(
      tx,
      'm-old',
      Array.from({ length: REQUESTS }, (_, i) => ({
        seq: i + 1,
        kind: 'request.asked' as const,
        request: oldRequest(i),
        offers: [offer],
      })),
      T0,
    ),
  );
  // A decision made on the unmasked text the hub showed: its edit and reason quote secrets.
  await oldDecision(db, identity, {
    decisionId: 'dec-00000001',
    requestId: 'req-0001',
    reason: `fine, ${GH} is the staging token`,
    terms: { edit: { input: { command: COMMAND.replace('/x', '/y') } }, ruleOffer: offer.id },
    at: T0,
  });
  await answerDecision(db, {
    decisionId: 'dec-00000001',
    machineId: 'm-old',
    now: T0,
    outcome: 'refused',
    detail: `the engine refused: ${COMMAND}`,
  });
  await oldShadowAndNotice(db, { shadowId: 7, requestId: 'req-0002', at: T0 });
  // A chained entry that quotes a secret (an "always" on an offer's text): the chain covers it.
  await appendAudit(db, T0, {
    type: 'decision.made',
    actor: 'ann',
    machineId: 'm-old',
    requestId: 'req-0003',
    data: { decision: 'approve', scope: 'always', rule: offer.describe },
  });
  await checkpointHubAudit(db, identity, T0);
  const [chained] = await db.query<{ seq: string | number }>(
    "SELECT seq FROM audit WHERE type = 'decision.made'",
  );
  await owe(db);
  return { identity, chainedSeq: Number(chained!.seq) };
}

const dbs = hubDatabases();

/**
 * What a hub stored before it masked what it stores is masked once at start, with the very
 * functions that mask what arrives now: every table of a real database (PGlite and a real
 * PostgreSQL) scanned for the secrets, the ids kept, the audit chain still verified, and a job
 * stopped half way (as a crash would) picked up where its last batch committed.
 */
describe.each(HUB_BACKENDS)('masking what a hub stored before, on %s', (backend) => {
  it('leaves no secret outside the chained audit entries it names, and keeps every id', async () => {
    const db = await dbs.fresh(backend);
    const { identity, chainedSeq } = await seedOldHub(db);
    const before = await hubTableTexts(db);
    expect(before.get('requests')).toMatch(LEAK);
    const requestKeys = await db.query(
      'SELECT machine_id, request_id FROM requests ORDER BY request_id',
    );

    // Stopped after the third batch, as a crash between two batches would stop it.
    let batches = 0;
    const lines: string[] = [];
    await expect(
      maskStoredSecrets({
        db,
        identity,
        clock,
        print: (l) => lines.push(l),
        batch: BATCH,
        afterBatch: () => {
          if (++batches === 3) throw new Error('crashed');
        },
      }),
    ).rejects.toThrow('crashed');
    const [half] = await db.query<{ phase: string; phase_done: string | number }>(
      'SELECT phase, phase_done FROM hub_data_jobs WHERE name = $1',
      [STORED_SECRETS_JOB],
    );
    expect(half).toMatchObject({ phase: 'requests' });
    expect(Number(half!.phase_done)).toBe(3 * BATCH);
    const halfRequests = await db.query<{ record: RequestRecord }>(
      'SELECT record FROM requests ORDER BY request_id',
    );
    expect(halfRequests.slice(0, 3 * BATCH).map((r) => r.record.command)).not.toContain(COMMAND);
    expect(halfRequests.slice(3 * BATCH).every((r) => r.record.command === COMMAND)).toBe(true);
    expect(lines).toContain(`gatehouse hub: masking stored secrets: requests 150 of ${REQUESTS}`);

    // Started again (the next start of the hub): it goes on from there and finishes.
    const again: string[] = [];
    const done = await maskStoredSecrets({
      db,
      identity,
      clock,
      print: (l) => again.push(l),
      batch: BATCH,
    });
    expect(done.ran).toBe(true);
    // 230 requests in all: 150 before the crash, the rest now; each other table's one row.
    expect(done.counts).toEqual({
      requests: REQUESTS,
      decisions: 1,
      shadow: 1,
      notices: 1,
      audit: 1,
    });
    expect(done.kept).toEqual([chainedSeq]);
    expect(again.slice(0, 3)).toEqual([
      'gatehouse hub: masking the secrets in what this hub stored before (once)',
      'gatehouse hub: masking stored secrets: requests 200 of 230',
      'gatehouse hub: masking stored secrets: requests 230 of 230',
    ]);
    expect(again).toContain(
      'gatehouse hub: stored secrets masked: 230 requests, 1 decisions, 1 shadow examples, 1 desktop notices, 1 audit entries from before the chain; 1 chained audit entries kept as they are (docs/hub.md)',
    );
    // A server's admin is told how to drop the old row versions; the embedded one drops them.
    expect(again.some((l) => l.includes('run VACUUM FULL requests, decisions'))).toBe(
      backend === 'postgres',
    );

    // Every table scanned: the secrets are only in the one chained entry, which the job's own
    // chained entry names.
    const after = await hubTableTexts(db);
    for (const [table, text] of after) if (table !== 'audit') expect(text, table).not.toMatch(LEAK);
    const leaking = await db.query<{ seq: string | number }>(
      "SELECT seq FROM audit WHERE data::text LIKE '%STOREDLEAK%'",
    );
    expect(leaking.map((r) => Number(r.seq))).toEqual([chainedSeq]);
    const [entry] = await db.query<{ data: Record<string, unknown> }>(
      "SELECT data FROM audit WHERE type = 'hub.stored_secrets_masked'",
    );
    expect(entry!.data).toMatchObject({ requests: REQUESTS, chainedKept: 1 });
    expect(entry!.data.chainedKeptSeqs).toEqual([chainedSeq]);
    const masked = after.get('requests')!;
    expect(masked).toContain('ghp_…[masked]');
    expect(masked).toContain('wJal…[masked]');
    expect(masked).toContain('postgres://app:…[masked]@db.internal/shop');
    expect(masked).toContain('Bearer opaq…[masked]');

    // The ids stay: the requests', each offer's (the digest of the machine's real rule), the
    // decision's, and the decision is still the hub's, signed, and still a decision.
    expect(
      await db.query('SELECT machine_id, request_id FROM requests ORDER BY request_id'),
    ).toEqual(requestKeys);
    const one = await getHubRequest(db, 'm-old', 'req-0007');
    expect(one!.record.requestId).toBe('req-0007');
    expect(one!.record.sessionId).toBe('ses-old');
    expect(one!.record.command).toBe(
      [
        'export AWS_SECRET_ACCESS_KEY=wJal…[masked]',
        "psql postgres://app:…[masked]@db.internal/shop -c 'select 1'",
        'curl -sf -H "X-Upstream: Bearer opaq…[masked]" --oauth2-bearer ghp_…[masked] https://api.example.com/x',
      ].join('\n'),
    );
    expect(one!.offers?.map((o) => o.id)).toEqual([offer.id]);
    expect(one!.offers?.[0]!.draft.command).toBe(one!.record.command);
    const decision = await getDecision(db, 'dec-00000001');
    expect(
      verifyText(identity.publicKey, decisionText(decision!.payload), decision!.signature),
    ).toBe(true);
    const parsed = HubDecision.parse(JSON.parse(decision!.payload));
    expect(parsed).toMatchObject({
      decisionId: 'dec-00000001',
      requestId: 'req-0001',
      reason: 'fine, ghp_…[masked] is the staging token',
      terms: { ruleOffer: offer.id },
    });
    expect(decision!.detail).toContain('ghp_…[masked]');

    // The chain and its signed checkpoints still verify, with the job's entry on it.
    const verified = await verifyHubAudit(db, identity.publicKey);
    expect(verified.findings).toEqual([]);
    expect(verified.ok).toBe(true);
    await checkpointHubAudit(db, identity, T0 + 120_000);
    expect((await verifyHubAudit(db, identity.publicKey)).ok).toBe(true);

    // Done is done: the next start does nothing, and changes nothing.
    const snapshot = await hubTableTexts(db);
    const idle = await maskStoredSecrets({ db, identity, clock, print: () => undefined });
    expect(idle.ran).toBe(false);
    expect(await hubTableTexts(db)).toEqual(snapshot);
  }, 120_000);

  it('masking masked rows changes none of them', async () => {
    const db = await dbs.fresh(backend);
    const { identity } = await seedOldHub(db);
    await maskStoredSecrets({ db, identity, clock, print: () => undefined, batch: BATCH });
    const once = await hubTableTexts(db);
    await owe(db);
    const twice = await maskStoredSecrets({ db, identity, clock, print: () => undefined });
    expect(twice.ran).toBe(true);
    expect(twice.counts).toEqual({});
    const after = await hubTableTexts(db);
    // Only the bookkeeping and the second run's own audit entry differ.
    for (const [table, text] of after)
      if (table !== 'audit' && table !== 'hub_data_jobs') expect(text, table).toBe(once.get(table));
    expect((await verifyHubAudit(db, identity.publicKey)).ok).toBe(true);
  }, 120_000);

  it('counts every chained entry it keeps, and names only the first 200, however many batches', async () => {
    const db = await dbs.fresh(backend);
    const identity = await ensureHubIdentity(db, generateEd25519, T0);
    const CHAINED = 260;
    for (let i = 0; i < CHAINED; i++)
      await appendAudit(db, T0 + i, {
        type: 'decision.made',
        actor: 'ann',
        machineId: 'm-old',
        requestId: `req-${i}`,
        data: { decision: 'approve', scope: 'always', rule: `curl --oauth2-bearer ${GH}` },
      });
    await owe(db);
    // The state the job writes with each batch: its list of numbers never passes 200.
    const listed: number[] = [];
    const lines: string[] = [];
    const r = await maskStoredSecrets({
      db,
      identity,
      clock,
      print: (l) => lines.push(l),
      batch: BATCH,
      afterBatch: (state) => listed.push(state.kept.length),
    });
    expect(Math.max(...listed)).toBe(200);
    expect(r.keptCount).toBe(CHAINED);
    const seqs = await db.query<{ seq: string | number }>(
      "SELECT seq FROM audit WHERE type = 'decision.made' ORDER BY seq",
    );
    expect(r.kept).toEqual(seqs.slice(0, 200).map((row) => Number(row.seq)));
    const [job] = await db.query<{ kept: number[]; kept_count: string | number }>(
      'SELECT kept, kept_count FROM hub_data_jobs WHERE name = $1',
      [STORED_SECRETS_JOB],
    );
    expect(job!.kept).toHaveLength(200);
    expect(Number(job!.kept_count)).toBe(CHAINED);
    const [entry] = await db.query<{ data: Record<string, unknown> }>(
      "SELECT data FROM audit WHERE type = 'hub.stored_secrets_masked'",
    );
    expect(entry!.data.chainedKept).toBe(CHAINED);
    expect(entry!.data.chainedKeptSeqs).toEqual(r.kept);
    expect(lines.at(-1)).toContain(`; ${CHAINED} chained audit entries kept as they are`);
    expect((await verifyHubAudit(db, identity.publicKey)).ok).toBe(true);
  }, 120_000);

  it('a job half way through under the old list keeps its count, its list cut to 200 (migration 016)', async () => {
    const db = await dbs.fresh(backend);
    const kept016 = readMigrations().find((m) => m.name === 'data_job_kept_count')!;
    // The table as migration 015 left it, with a job half way that had listed 300 entries.
    await db.query('ALTER TABLE hub_data_jobs DROP COLUMN kept_count');
    const longList = Array.from({ length: 300 }, (_, i) => 1000 + i);
    await db.query(
      `UPDATE hub_data_jobs SET phase = 'audit', after_key = '[1299]', counts = '{"requests":4}',
         kept = $2::jsonb, started_at = $3, done_at = NULL WHERE name = $1`,
      [STORED_SECRETS_JOB, JSON.stringify(longList), T0],
    );
    for (const statement of splitStatements(kept016.sql)) await db.query(statement);
    const [job] = await db.query<{ kept: number[]; kept_count: string | number; phase: string }>(
      'SELECT kept, kept_count, phase FROM hub_data_jobs WHERE name = $1',
      [STORED_SECRETS_JOB],
    );
    expect(job!.phase).toBe('audit');
    expect(Number(job!.kept_count)).toBe(300);
    expect(job!.kept).toEqual(longList.slice(0, 200));
  }, 60_000);

  it('for a day after, masks what a replica of an older version still stores, wherever its key falls', async () => {
    const db = await dbs.fresh(backend);
    const { identity } = await seedOldHub(db);
    await maskStoredSecrets({ db, identity, clock, print: () => undefined, batch: BATCH });
    const doneAt = clock.now();

    // An older replica, still serving an hour later, stores as they came a request whose id
    // sorts before every other (behind any place the job reached), a decision on it, a notice
    // and a shadow example.
    const later = doneAt + 3_600_000;
    await db.transaction((tx) =>
      storePublished(
        tx,
        'm-old',
        [
          {
            seq: 9_001,
            kind: 'request.asked' as const,
            request: { ...oldRequest(0), requestId: 'req-0000-late' },
            offers: [offer],
          },
        ],
        later,
      ),
    );
    await oldDecision(db, identity, {
      decisionId: 'dec-late0001',
      requestId: 'req-0000-late',
      reason: `again with ${GH}`,
      at: later,
    });
    await oldShadowAndNotice(db, { shadowId: 8, requestId: 'req-0000-late', at: later });
    expect((await hubTableTexts(db)).get('requests')).toMatch(LEAK);

    // A round (batches of 2: the walk by time and key goes on across them) masks those four.
    const at = (ms: number) => ({ now: () => ms });
    const round = await catchUpStoredSecrets({ db, identity, clock: at(later + 60_000), batch: 2 });
    expect(round).toEqual({
      ran: true,
      counts: { requests: 1, decisions: 1, shadow: 1, notices: 1 },
    });
    for (const [table, text] of await hubTableTexts(db))
      if (table !== 'audit') expect(text, table).not.toMatch(LEAK);
    const entries = await db.query<{ data: Record<string, unknown> }>(
      "SELECT data FROM audit WHERE type = 'hub.stored_secrets_masked' ORDER BY seq",
    );
    expect(entries.at(-1)!.data).toEqual({
      requests: 1,
      decisions: 1,
      shadow: 1,
      notices: 1,
      catchUp: true,
    });
    const decision = await getDecision(db, 'dec-late0001');
    expect(
      verifyText(identity.publicKey, decisionText(decision!.payload), decision!.signature),
    ).toBe(true);

    // The next round finds nothing new, and says nothing.
    expect(await catchUpStoredSecrets({ db, identity, clock: at(later + 120_000) })).toEqual({
      ran: true,
      counts: {},
    });
    // A day after the job the window closes: one last round, then none.
    const closes = doneAt + CATCH_UP_WINDOW_MS;
    expect((await catchUpStoredSecrets({ db, identity, clock: at(closes + 1) })).ran).toBe(true);
    expect((await catchUpStoredSecrets({ db, identity, clock: at(closes + 2) })).ran).toBe(false);
    expect((await verifyHubAudit(db, identity.publicKey)).ok).toBe(true);
  }, 120_000);

  it('runs its rounds on a timer while serving, and says what it masked', async () => {
    const db = await dbs.fresh(backend);
    const { identity } = await seedOldHub(db);
    await maskStoredSecrets({ db, identity, clock, print: () => undefined });
    await db.transaction((tx) =>
      storePublished(
        tx,
        'm-old',
        [{ seq: 9_002, kind: 'request.asked' as const, request: oldRequest(500), offers: [] }],
        clock.now() + 1_000,
      ),
    );
    const lines: string[] = [];
    const stop = startStoredSecretsCatchUp(
      { db, identity, clock: { now: () => clock.now() + 2_000 }, log: (l) => lines.push(l) },
      50,
    );
    try {
      await vi.waitFor(
        () =>
          expect(lines).toContain('gatehouse hub: masked what an older replica stored: 1 requests'),
        { timeout: 10_000 },
      );
    } finally {
      stop();
    }
    expect((await hubTableTexts(db)).get('requests')).not.toMatch(LEAK);
  }, 60_000);

  it('a new hub, with nothing from before, finishes at once, silently and unaudited', async () => {
    const db = await dbs.fresh(backend);
    const identity = await ensureHubIdentity(db, generateEd25519, T0);
    await owe(db);
    const lines: string[] = [];
    const r = await maskStoredSecrets({ db, identity, clock, print: (l) => lines.push(l) });
    expect(r).toEqual({ ran: true, counts: {}, kept: [], keptCount: 0 });
    expect(lines).toEqual([]);
    expect(await db.query('SELECT seq FROM audit')).toEqual([]);
    const [job] = await db.query<{ done_at: string | number | null }>(
      'SELECT done_at FROM hub_data_jobs WHERE name = $1',
      [STORED_SECRETS_JOB],
    );
    expect(Number(job!.done_at)).toBe(clock.now());
  }, 60_000);
});

/**
 * Two replicas starting together on one PostgreSQL both run the job: their batches take turns
 * under the jobs' lock, so the rows are masked once, the counts are whole, and one entry is
 * appended to the chain.
 */
describe('two replicas starting together', () => {
  it('share the job: each row masked once, one audit entry', async () => {
    const url = dbs.server().createDatabase(`scrub_replicas_${process.pid}`);
    const a = await openHubDatabase({ url, dataDir: '' });
    const b = await openHubDatabase({ url, dataDir: '' });
    try {
      const { identity, chainedSeq } = await seedOldHub(a);
      const lines: string[] = [];
      const [ra, rb] = await Promise.all(
        [a, b].map((db) =>
          maskStoredSecrets({ db, identity, clock, print: (l) => lines.push(l), batch: BATCH }),
        ),
      );
      const whole = { requests: REQUESTS, decisions: 1, shadow: 1, notices: 1, audit: 1 };
      expect(ra!.counts).toEqual(whole);
      expect(rb!.counts).toEqual(whole);
      const entries = await a.query(
        "SELECT seq FROM audit WHERE type = 'hub.stored_secrets_masked'",
      );
      expect(entries).toHaveLength(1);
      expect(ra!.kept).toEqual([chainedSeq]);
      for (const [table, text] of await hubTableTexts(a))
        if (table !== 'audit') expect(text, table).not.toMatch(LEAK);
      expect((await verifyHubAudit(a, identity.publicKey)).ok).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);
});

/**
 * An UPDATE leaves the old row in the table's pages: in the embedded database, which no other
 * replica serves from, the job rewrites the tables, so the data folder's table files hold the
 * secrets no more (the chained audit entry it keeps aside). The write-ahead log still may.
 */
describe('the embedded database’s files after the masking', () => {
  let dir: string;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hold the secrets only in the audit table the chain covers', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-scrub-files-'));
    const data = join(dir, 'db');
    const db = await openHubDatabase({ dataDir: data });
    let auditFile = '';
    try {
      const { identity } = await seedOldHub(db);
      // The positive control: written out, the seeded rows are in the requests table's file.
      await db.query('CHECKPOINT');
      const [requests] = await db.query<{ path: string }>(
        "SELECT pg_relation_filepath('requests') AS path",
      );
      expect(filesHolding(data, 'base')).toContain(requests!.path);
      await maskStoredSecrets({ db, identity, clock, print: () => undefined, batch: BATCH });
      const [path] = await db.query<{ path: string }>(
        "SELECT pg_relation_filepath('audit') AS path",
      );
      auditFile = path!.path;
    } finally {
      await db.close();
    }
    expect(filesHolding(data, 'base')).toEqual([auditFile]);
  }, 120_000);
});

/** The files under `data/sub` whose bytes hold a seeded secret, relative to `data`. */
function filesHolding(data: string, sub: string): string[] {
  const found: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(data, rel), { withFileTypes: true })) {
      const path = join(rel, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (readFileSync(join(data, path)).includes('STOREDLEAK')) found.push(path);
    }
  };
  walk(sub);
  return found.sort();
}
