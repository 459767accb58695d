/**
 * A record no one can quietly rewrite, with a hub: a real daemon joined to a real hub on
 * PostgreSQL sends its signed audit checkpoints over its link (also those made while the hub
 * was down); a machine's SQLite file rewritten by hand the way an attacker holding it would
 * (an entry edited, the chain's links recomputed, the local checkpoints re-signed with the
 * machine's own key, or deleted) passes the local `audit verify` but not `audit verify --hub`;
 * the hub refuses a checkpoint under another key and anyone without the machine's link key.
 * The hub's own audit chain: two replicas appending at once make one verifiable chain, and a
 * row edited, deleted or swapped by SQL is found by `gatehouse hub audit verify`.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  CHAIN_GENESIS,
  chainHash,
  chainLink,
  checkpointText,
} from '../../../main/audit/audit-chain';
import { AuditChainRepository } from '../../../main/store/audit-chain-repository';
import {
  authText,
  HubToMachine,
  type MachineCheckpoint,
  type MachineToHub,
} from '../../../shared/hub-protocol';
import { hubLinkFiles } from '../../../shared/node/hub-files';
import { generateEd25519, signText } from '../../../shared/node/hub-keys';
import { TestDaemon } from '../../support/daemon';
import { freePort } from '../../support/free-port';
import { joinHub, TestHub, waitForLink } from '../../support/hub';
import { TestPostgres } from '../../support/postgres';

interface Finding {
  kind: string;
  seq: number;
  detail: string;
}
interface HubVerify {
  ok: boolean;
  checked: number;
  checkpoints: number;
  sealedThrough: number;
  findings: Finding[];
  hub: {
    joined: boolean;
    reachable: boolean;
    error?: string;
    checkpoints: number;
    throughSeq?: number;
  };
}

let pgServer: TestPostgres;

beforeAll(async () => {
  pgServer = await TestPostgres.start();
});
afterAll(() => {
  pgServer?.stop();
});

async function query<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function verifyHub(d: TestDaemon): Promise<{ code: number | null; json: HubVerify }> {
  const r = await d.cli(['audit', 'verify', '--hub', '--json']);
  return { code: r.code, json: JSON.parse(r.stdout) as HubVerify };
}

/** Waits until the hub holds every checkpoint the machine signed (at least `atLeast`). */
async function hubCaughtUp(d: TestDaemon, atLeast = 1): Promise<HubVerify> {
  let last: HubVerify | undefined;
  await expect
    .poll(
      async () => {
        last = (await verifyHub(d)).json;
        return last.hub.checkpoints >= atLeast && last.hub.checkpoints === last.checkpoints;
      },
      { timeout: 20_000, interval: 300 },
    )
    .toBe(true);
  return last!;
}

/** Some audited calls of an agent on the machine. */
async function calls(d: TestDaemon, n: number, tag: string): Promise<void> {
  const agent = await d.agent({ agent: 'auditor' });
  for (let i = 0; i < n; i++)
    await agent.request({ action: 'read_file', description: `${tag} ${i}`, wait: false });
  agent.close();
}

/**
 * What an attacker with the machine's files does after changing an entry: recomputes every
 * link from the chain's start as the daemon would, and re-signs each local checkpoint over
 * the new hashes with the machine's own audit key (or deletes the checkpoints).
 */
function rewriteChain(home: string, o: { checkpoints: 'resign' | 'delete' }): void {
  const db = new Database(join(home, 'gatehouse.db'));
  try {
    const chain = new AuditChainRepository(db);
    const linked = new Set(db.prepare('SELECT seq FROM audit_chain').pluck().all() as number[]);
    const hashes = new Map<number, Buffer>();
    let previous = CHAIN_GENESIS;
    for (const entry of chain.entriesAfter(0, 1_000_000)) {
      if (!linked.has(entry.seq)) continue;
      previous = chainLink(previous, entry);
      hashes.set(entry.seq, previous);
    }
    const key = readFileSync(join(home, 'audit.key'), 'utf8');
    db.transaction(() => {
      for (const [seq, hash] of hashes)
        db.prepare('UPDATE audit_chain SET hash = ? WHERE seq = ?').run(hash, seq);
      if (o.checkpoints === 'delete') {
        db.prepare('DELETE FROM audit_checkpoints').run();
        return;
      }
      for (const c of chain.checkpoints()) {
        // A checkpoint at an entry that is gone goes too.
        if (!hashes.has(c.seq)) {
          db.prepare('DELETE FROM audit_checkpoints WHERE seq = ?').run(c.seq);
          continue;
        }
        const hash = hashes.get(c.seq)!.toString('hex');
        const signature = signText(key, checkpointText({ ...c, hash }));
        db.prepare('UPDATE audit_checkpoints SET hash = ?, signature = ? WHERE seq = ?').run(
          hash,
          signature,
          c.seq,
        );
      }
    })();
  } finally {
    db.close();
  }
}

/** A raw link to the hub as `machineId`, signing its challenge with `keyPem`. */
async function rawLink(
  hub: TestHub,
  machineId: string,
  keyPem: string,
): Promise<{
  first: HubToMachine;
  send(m: MachineToHub): void;
  next(): Promise<HubToMachine | { t: 'closed'; code: number }>;
  close(): void;
}> {
  const url = new URL('/api/machines/link', hub.url);
  url.protocol = 'ws:';
  const ws = new WebSocket(url);
  const queue: (HubToMachine | { t: 'closed'; code: number })[] = [];
  const waiting: ((m: HubToMachine | { t: 'closed'; code: number }) => void)[] = [];
  const push = (m: HubToMachine | { t: 'closed'; code: number }) => {
    const w = waiting.shift();
    if (w) w(m);
    else queue.push(m);
  };
  ws.on('message', (data) => push(HubToMachine.parse(JSON.parse(String(data)))));
  ws.on('close', (code) => push({ t: 'closed', code }));
  const next = () =>
    new Promise<HubToMachine | { t: 'closed'; code: number }>((resolve) => {
      const m = queue.shift();
      if (m) resolve(m);
      else waiting.push(resolve);
    });
  const challenge = await next();
  if (challenge.t !== 'challenge') throw new Error(`no challenge: ${JSON.stringify(challenge)}`);
  ws.send(
    JSON.stringify({
      t: 'auth',
      machineId,
      sig: signText(keyPem, authText(challenge.nonce, machineId)),
    }),
  );
  const first = (await next()) as HubToMachine;
  return {
    first,
    send: (m) => ws.send(JSON.stringify(m)),
    next,
    close: () => ws.close(),
  };
}

describe("a machine's checkpoints on the hub, and audit verify --hub", () => {
  let hub: TestHub;
  let d: TestDaemon;
  let dbUrl: string;

  beforeAll(async () => {
    dbUrl = pgServer.createDatabase('machine_audit');
    hub = await TestHub.start({ databaseUrl: dbUrl, port: await freePort() });
    d = await TestDaemon.start({}, ['--no-dashboard']);
    // Every call its own entry, settled (and chained) a second after it is written; signed often.
    expect((await d.cli(['config', 'set', 'audit.classifyFoldMs', '0'])).code).toBe(0);
    expect((await d.cli(['config', 'set', 'audit.checkpointMs', '1000'])).code).toBe(0);
  });
  afterAll(async () => {
    await d?.stop();
    await hub?.stop();
  });

  it('says clearly that a machine that has not joined has no hub to check against (exit 2)', async () => {
    await calls(d, 2, 'before joining');
    const r = await d.cli(['audit', 'verify', '--hub']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^Audit trail intact/);
    expect(r.stderr).toContain('this machine has not joined a hub');
    const json = await verifyHub(d);
    expect(json.code).toBe(2);
    expect(json.json.hub).toMatchObject({ joined: false, reachable: false });
  });

  it('sends each signed checkpoint to the hub, and those made while the hub was down when it is back', async () => {
    await joinHub(d, hub, 'laptop');
    await calls(d, 4, 'linked');
    const linked = await hubCaughtUp(d);
    expect(linked.ok).toBe(true);
    const ok = await d.cli(['audit', 'verify', '--hub']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/Hub http:\/\/\S+: \d+ checkpoint\(s\) of this machine compared/);
    // The key the hub pinned is this machine's audit key.
    const { publicKey } = JSON.parse((await d.cli(['audit', 'verify', '--json'])).stdout) as {
      publicKey: string;
    };
    const [pinned] = await query<{ public_key: string }>(
      dbUrl,
      'SELECT public_key FROM machine_audit_keys',
    );
    expect(pinned?.public_key).toBe(publicKey);

    // The hub goes away; the machine goes on signing.
    await hub.signal('SIGTERM');
    await waitForLink(d, false);
    const down = await d.cli(['audit', 'verify', '--hub']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('the hub is not reachable');
    await calls(d, 4, 'offline');
    let offline = 0;
    await expect
      .poll(
        async () => {
          const local = JSON.parse((await d.cli(['audit', 'verify', '--json'])).stdout) as {
            checkpoints: number;
          };
          offline = local.checkpoints;
          return offline;
        },
        { timeout: 20_000, interval: 300 },
      )
      .toBeGreaterThan(linked.checkpoints);

    await hub.launch();
    await waitForLink(d, true);
    const back = await hubCaughtUp(d, offline);
    expect(back.ok).toBe(true);
    // Each kept once, however often the machine sent it.
    const [counts] = await query<{ n: string; distinct: string }>(
      dbUrl,
      'SELECT count(*) AS n, count(DISTINCT seq) AS distinct FROM machine_audit_checkpoints',
    );
    expect(Number(counts!.n)).toBe(back.hub.checkpoints);
    expect(Number(counts!.distinct)).toBe(Number(counts!.n));
  });

  it('finds a chain rewritten on the machine with its checkpoints re-signed, which local verify passes', async () => {
    const before = await hubCaughtUp(d);
    await d.signal('SIGTERM');
    const db = new Database(join(d.home, 'gatehouse.db'));
    const seqs = db
      .prepare('SELECT seq FROM audit WHERE seq <= ? ORDER BY seq')
      .pluck()
      .all(before.hub.throughSeq) as number[];
    const edited = seqs[Math.floor(seqs.length / 2)]!;
    db.prepare(`UPDATE audit SET data_json = '{"note":"nothing happened"}' WHERE seq = ?`).run(
      edited,
    );
    db.close();
    rewriteChain(d.home, { checkpoints: 'resign' });
    await d.launch(['--no-dashboard']);

    // The local chain agrees with itself: the rewrite was consistent.
    const local = await d.cli(['audit', 'verify']);
    expect(local.code, local.stdout).toBe(0);
    await waitForLink(d, true);
    const text = await d.cli(['audit', 'verify', '--hub']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^Audit trail TAMPERED/);
    const r = await verifyHub(d);
    expect(r.code).toBe(1);
    const hubFindings = r.json.findings.filter((f) => f.kind === 'hub');
    expect(hubFindings.length, JSON.stringify(r.json.findings)).toBe(1);
    const found = hubFindings[0]!;
    // Where: the first checkpoint the hub holds at or after the edited entry.
    expect(found.seq).toBeGreaterThanOrEqual(edited);
    expect(found.detail).toMatch(/no longer matches this chain/);
    expect(text.stdout).toContain(`entry ${found.seq}`);
  });

  it('finds a chain rewritten with the local checkpoints deleted', async () => {
    // A machine of its own, so only this rewrite stands between it and the hub.
    const desk = await TestDaemon.start({}, ['--no-dashboard']);
    try {
      expect((await desk.cli(['config', 'set', 'audit.classifyFoldMs', '0'])).code).toBe(0);
      expect((await desk.cli(['config', 'set', 'audit.checkpointMs', '1000'])).code).toBe(0);
      await joinHub(desk, hub, 'desk');
      await calls(desk, 4, 'desk');
      const before = await hubCaughtUp(desk);
      await desk.signal('SIGTERM');
      const db = new Database(join(desk.home, 'gatehouse.db'));
      const [first] = db
        .prepare('SELECT seq FROM audit WHERE seq <= ? ORDER BY seq')
        .pluck()
        .all(before.hub.throughSeq) as number[];
      db.prepare('DELETE FROM audit WHERE seq = ?').run(first);
      db.prepare('DELETE FROM audit_chain WHERE seq = ?').run(first);
      db.close();
      rewriteChain(desk.home, { checkpoints: 'delete' });
      await desk.launch(['--no-dashboard']);
      // Without checkpoints, the local chain has nothing to miss.
      const local = await desk.cli(['audit', 'verify']);
      expect(local.code, local.stdout).toBe(0);
      await waitForLink(desk, true);
      const r = await verifyHub(desk);
      expect(r.code).toBe(1);
      expect(r.json.findings.filter((f) => f.kind === 'hub').length).toBe(1);
    } finally {
      await desk.stop();
    }
  });

  it('refuses a checkpoint signed by another key (audited), and anyone without the link key', async () => {
    const link = JSON.parse(readFileSync(hubLinkFiles(d.home).link, 'utf8')) as {
      machineId: string;
    };
    const [pinnedBefore] = await query<{ public_key: string }>(
      dbUrl,
      'SELECT public_key FROM machine_audit_keys',
    );
    const other = generateEd25519();
    const forged = (seq: number): MachineCheckpoint => {
      const c = {
        seq,
        hash: 'ab'.repeat(32),
        at: Date.now(),
        throughAt: Date.now(),
        entries: seq,
      };
      return {
        ...c,
        publicKey: other.publicKey,
        signature: signText(other.privateKeyPem, checkpointText(c)),
      };
    };

    // Without the machine's link key (an agent on the machine cannot read it): refused.
    const stranger = await rawLink(hub, link.machineId, other.privateKeyPem);
    expect(stranger.first).toMatchObject({ t: 'refused', message: 'bad signature' });
    stranger.close();

    // With it (as the daemon itself, stopped so its own link does not replace this one):
    // checkpoints under another audit key are refused.
    await d.signal('SIGTERM');
    const machineKey = readFileSync(hubLinkFiles(d.home).key, 'utf8');
    const raw = await rawLink(hub, link.machineId, machineKey);
    expect(raw.first.t).toBe('ready');
    raw.send({ t: 'checkpoints', checkpoints: [forged(9_000_000)] });
    const ack = await raw.next();
    expect(ack).toMatchObject({ t: 'checkpoints.ack', seq: 9_000_000 });
    expect((ack as { refused?: string }).refused).toMatch(/another key/);
    raw.close();

    const refused = await query<{ data: { reason: string; seq: number } }>(
      dbUrl,
      "SELECT data FROM audit WHERE type = 'machine.checkpoint_refused'",
    );
    expect(refused.map((r) => r.data)).toEqual([
      expect.objectContaining({ reason: 'other_key', seq: 9_000_000 }),
    ]);
    const [pinnedAfter] = await query<{ public_key: string }>(
      dbUrl,
      'SELECT public_key FROM machine_audit_keys',
    );
    expect(pinnedAfter?.public_key).toBe(pinnedBefore?.public_key);
    expect(
      await query(dbUrl, 'SELECT seq FROM machine_audit_checkpoints WHERE seq = 9000000'),
    ).toEqual([]);
  });
});

describe("the hub's own audit chain", () => {
  let a: TestHub;
  let b: TestHub;
  let dbUrl: string;
  let adminToken: string;

  beforeAll(async () => {
    dbUrl = pgServer.createDatabase('hub_audit');
    a = await TestHub.start({ databaseUrl: dbUrl });
    b = await TestHub.start({ databaseUrl: dbUrl, sameHubAs: a });
    adminToken = readFileSync(a.adminTokenFile, 'utf8').trim();
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  async function hubVerify(): Promise<{ code: number | null; stdout: string; json: HubVerify }> {
    const text = await a.cli(['audit', 'verify']);
    const json = await a.cli(['audit', 'verify', '--json']);
    expect(json.code).toBe(text.code);
    return { code: text.code, stdout: text.stdout, json: JSON.parse(json.stdout) as HubVerify };
  }

  it('two replicas appending at the same moment make one chain that verifies', async () => {
    const invites = Array.from({ length: 40 }, (_, i) =>
      (i % 2 ? a : b).api('POST', '/api/admin/invite', {
        token: adminToken,
        body: { machine: `m${i}` },
      }),
    );
    const answers = await Promise.all(invites);
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const r = await hubVerify();
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^The hub's audit trail intact/);
    expect(r.json.checked).toBeGreaterThanOrEqual(40);
    expect(r.json.checkpoints).toBeGreaterThan(0);
    // One chain: every row links to the one before it, none was left without a link.
    const rows = await query<{ n: string; linked: string }>(
      dbUrl,
      'SELECT count(*) AS n, count(hash) AS linked FROM audit',
    );
    expect(rows[0]!.linked).toBe(rows[0]!.n);
  });

  it('finds a row edited, deleted or swapped by SQL, and says where', async () => {
    for (let i = 0; i < 30; i++)
      expect(
        (
          await a.api('POST', '/api/admin/invite', {
            token: adminToken,
            body: { machine: `s${i}` },
          })
        ).status,
      ).toBe(200);
    const seqs = (
      await query<{ seq: string }>(
        dbUrl,
        "SELECT seq FROM audit WHERE type = 'machine.invited' AND data->>'machine' LIKE 's%' ORDER BY seq",
      )
    ).map((r) => Number(r.seq));
    const [edited, deleted, x, y] = [seqs[3]!, seqs[10]!, seqs[20]!, seqs[21]!];
    await query(dbUrl, `UPDATE audit SET data = '{"machine":"nobody"}' WHERE seq = $1`, [edited]);
    await query(dbUrl, 'DELETE FROM audit WHERE seq = $1', [deleted]);
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query('UPDATE audit SET seq = -1 WHERE seq = $1', [x]);
    await client.query('UPDATE audit SET seq = $1 WHERE seq = $2', [x, y]);
    await client.query('UPDATE audit SET seq = $1 WHERE seq = -1', [y]);
    await client.query('COMMIT');
    await client.end();

    const r = await hubVerify();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^The hub's audit trail TAMPERED/);
    // A deleted row is found at the one after it; swapped rows (their links go with them) at
    // both, and at the row after them, whose link no longer follows.
    const [afterDeleted, afterSwap] = [seqs[11]!, seqs[22]!];
    expect(r.json.findings.map((f) => [f.kind, f.seq]).sort()).toEqual(
      [
        ['changed', edited],
        ['changed', afterDeleted],
        ['changed', x],
        ['changed', y],
        ['changed', afterSwap],
      ].sort(),
    );
    for (const seq of [edited, afterDeleted, x, y]) expect(r.stdout).toContain(`entry ${seq}`);
  });
});

describe("the hub's audit chain rewritten by SQL", () => {
  let hub: TestHub;
  let dbUrl: string;

  beforeAll(async () => {
    dbUrl = pgServer.createDatabase('hub_audit_rewrite');
    hub = await TestHub.start({ databaseUrl: dbUrl });
  });
  afterAll(async () => {
    await hub?.stop();
  });

  it("is found at the hub's signed checkpoint when every link after the change is recomputed", async () => {
    for (let i = 0; i < 6; i++) await hub.invite(`r${i}`);
    // Verifying signs the head: the checkpoint the rewrite has to get past.
    expect((await hub.cli(['audit', 'verify'])).code).toBe(0);
    const rows = await query<{
      seq: string;
      at: string;
      type: string;
      actor: string | null;
      machine_id: string | null;
      request_id: string | null;
      data: Record<string, unknown> | null;
    }>(dbUrl, 'SELECT * FROM audit WHERE hash IS NOT NULL ORDER BY seq');
    const edited = Number(rows[2]!.seq);
    let previous = CHAIN_GENESIS;
    for (const r of rows) {
      const data = Number(r.seq) === edited ? { machine: 'nobody' } : r.data;
      previous = chainHash(previous, {
        seq: Number(r.seq),
        at: Number(r.at),
        type: r.type,
        ...(r.actor !== null ? { actor: r.actor } : {}),
        ...(r.machine_id !== null ? { machineId: r.machine_id } : {}),
        ...(r.request_id !== null ? { requestId: r.request_id } : {}),
        ...(data !== null ? { data } : {}),
      });
      await query(dbUrl, 'UPDATE audit SET data = $2, hash = $3 WHERE seq = $1', [
        r.seq,
        data,
        previous.toString('hex'),
      ]);
    }
    const r = await hub.cli(['audit', 'verify', '--json']);
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as HubVerify).findings;
    expect(found).toEqual([expect.objectContaining({ kind: 'checkpoint' })]);
    expect(found[0]!.detail).toMatch(/no longer reaches the checkpoint/);
  });
});
