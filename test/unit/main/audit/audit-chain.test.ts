import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RetentionService } from '../../../../main/store/retention-service';
import { AuditSealer } from '../../../../main/audit/audit-sealer';
import { verifyAuditChain } from '../../../../main/audit/audit-verifier';
import { chainLink, CHAIN_GENESIS } from '../../../../main/audit/audit-chain';
import { AuditChainRepository } from '../../../../main/store/audit-chain-repository';
import { generateEd25519 } from '../../../../shared/node/hub-keys';
import { EngineHarness } from '../../../support/engine-harness';
import { LoopActivity } from '../../../../main/store/loop-activity';

const SETTLE_MS = 61_000;
const CHECKPOINT_MS = 10 * 60_000;
const key = generateEd25519();

/** A sealer over a harness's database, with the test's settle time and the key above. */
const sealerOver = (
  h: EngineHarness,
  chain: AuditChainRepository,
  settleMs: number,
  extra: { busyWritesPerTick?: number; loopBusy?: () => boolean } = {},
) =>
  new AuditSealer({
    chain,
    key,
    clock: h.clock,
    settleMs: () => settleMs,
    checkpointMs: () => CHECKPOINT_MS,
    writerIdle: () => !h.db.inTransaction,
    ...extra,
  });

const req = (over: Record<string, unknown> = {}) => ({
  action: 'read_file',
  description: 'read a file',
  urgency: 'normal' as const,
  wait: false,
  ...over,
});

describe('the audit chain', () => {
  let h: EngineHarness;
  let chain: AuditChainRepository;
  let sealer: AuditSealer;

  beforeEach(() => {
    h = new EngineHarness();
    chain = new AuditChainRepository(h.db);
    sealer = sealerOver(h, chain, SETTLE_MS);
  });
  afterEach(() => h.close());

  /** A mixed trail: auto-approved requests (their own entries), pending ones, classifications. */
  async function writeTrail(rounds = 5): Promise<void> {
    const a = h.hello('agent-a');
    for (let i = 0; i < rounds; i++) {
      await h.engine.request(a, req({ description: `read ${i}` }));
      h.engine.classify(a, { action: 'git_push', target: `origin-${i}` });
      await h.engine.request(a, req({ action: 'git_push', description: `push ${i}` }));
      h.clock.advance(1000);
    }
    h.work.flush();
  }

  const verify = () => verifyAuditChain(chain, key.publicKey);
  const sealAll = () => {
    h.clock.advance(SETTLE_MS + 1);
    sealer.seal(h.clock.now() - SETTLE_MS);
    sealer.checkpoint();
  };
  /** Audit-table entries and request entries, by seq. */
  const auditSeqs = () =>
    h.db.prepare('SELECT seq FROM audit ORDER BY seq').pluck().all() as number[];
  const requestEntrySeqs = () =>
    h.db
      .prepare('SELECT audit_seq FROM requests WHERE audit_seq IS NOT NULL ORDER BY audit_seq')
      .pluck()
      .all() as number[];

  it('chains every entry of the trail, requests that are their own entry included', async () => {
    await writeTrail();
    sealAll();
    const r = await verify();
    expect(r.findings).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.checked).toBe(auditSeqs().length + requestEntrySeqs().length);
    expect(r.checkpoints).toBe(1);
    // The links are the hash chain of the trail as its readers see it, oldest first.
    const entries = chain.entriesAfter(0, 1000);
    let previous = CHAIN_GENESIS;
    for (const e of entries) previous = chainLink(previous, e);
    expect(chain.head()?.hash.equals(previous)).toBe(true);
  });

  it('waits for an entry to settle: a folded classification is still being counted', async () => {
    const a = h.hello('agent-a');
    h.engine.classify(a, { action: 'git_push' });
    h.work.flush();
    expect(sealer.seal(h.clock.now() - SETTLE_MS)).toBe(0);
    h.clock.advance(1000);
    h.engine.classify(a, { action: 'git_push' });
    h.work.flush();
    h.clock.advance(SETTLE_MS);
    expect(sealer.seal(h.clock.now() - SETTLE_MS)).toBeGreaterThan(0);
    sealer.checkpoint();
    expect((await verify()).ok).toBe(true);
  });

  it('finds an entry changed by hand, and says which', async () => {
    await writeTrail();
    sealAll();
    const seq = auditSeqs()[3] as number;
    h.db.prepare(`UPDATE audit SET data_json = '{"action":"nothing"}' WHERE seq = ?`).run(seq);
    const r = await verify();
    expect(r.ok).toBe(false);
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'changed', seq })]);
  });

  it('finds a request row (its own entry) changed by hand', async () => {
    await writeTrail();
    sealAll();
    const seq = requestEntrySeqs()[1] as number;
    h.db.prepare(`UPDATE requests SET action = 'deploy' WHERE audit_seq = ?`).run(seq);
    const r = await verify();
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'changed', seq })]);
  });

  it('finds a deleted entry, in the audit table and among the requests', async () => {
    await writeTrail();
    sealAll();
    const gone = auditSeqs()[2] as number;
    const goneRequest = requestEntrySeqs()[3] as number;
    h.db.prepare('DELETE FROM audit WHERE seq = ?').run(gone);
    h.db.prepare('DELETE FROM requests WHERE audit_seq = ?').run(goneRequest);
    const r = await verify();
    expect(r.findings.map((f) => [f.kind, f.seq]).sort()).toEqual(
      [
        ['deleted', gone],
        ['deleted', goneRequest],
      ].sort(),
    );
  });

  it('finds two entries swapped (their places in the order exchanged)', async () => {
    await writeTrail();
    sealAll();
    const [x, y] = auditSeqs().slice(1, 3) as [number, number];
    h.db.transaction(() => {
      h.db.prepare('UPDATE audit SET seq = -1 WHERE seq = ?').run(x);
      h.db.prepare('UPDATE audit SET seq = ? WHERE seq = ?').run(x, y);
      h.db.prepare('UPDATE audit SET seq = ? WHERE seq = -1').run(y);
    })();
    const r = await verify();
    expect(r.findings.map((f) => [f.kind, f.seq])).toEqual([
      ['changed', x],
      ['changed', y],
    ]);
  });

  it('finds a change hidden by a rewritten chain at the signed checkpoint', async () => {
    await writeTrail();
    sealAll();
    const seq = auditSeqs()[3] as number;
    h.db.prepare(`UPDATE audit SET data_json = '{"action":"nothing"}' WHERE seq = ?`).run(seq);
    // The forger recomputes every link from the changed entry on.
    let previous = chain.linksAfter(0, 1000).find((l, i, all) => all[i + 1]?.seq === seq)
      ?.hash as Buffer;
    for (const e of chain.entriesAfter(seq - 1, 1000)) {
      previous = chainLink(previous, e);
      h.db.prepare('UPDATE audit_chain SET hash = ? WHERE seq = ?').run(previous, e.seq);
    }
    const r = await verify();
    expect(r.findings).toEqual([
      expect.objectContaining({ kind: 'checkpoint', seq: chain.head()?.seq }),
    ]);
  });

  it('finds the newest entries deleted with their links', async () => {
    await writeTrail();
    sealAll();
    const newest = chain.head()?.seq as number;
    h.db.prepare('DELETE FROM audit WHERE seq >= ?').run(newest - 2);
    h.db.prepare('DELETE FROM requests WHERE audit_seq >= ?').run(newest - 2);
    h.db.prepare('DELETE FROM audit_chain WHERE seq >= ?').run(newest - 2);
    const r = await verify();
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'checkpoint', seq: newest })]);
  });

  it('finds an entry inserted into the chained past', async () => {
    await writeTrail();
    // A number with no entry when the chain was sealed (as a rolled-back write leaves).
    const free = auditSeqs()[2] as number;
    h.db.prepare('DELETE FROM audit WHERE seq = ?').run(free);
    sealAll();
    expect((await verify()).ok).toBe(true);
    h.db
      .prepare(`INSERT INTO audit (seq, at, type, data_json) VALUES (?, ?, 'rule.added', '{}')`)
      .run(free, h.clock.now() - SETTLE_MS * 2);
    const r = await verify();
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'added', seq: free })]);
  });

  it('refuses a checkpoint not signed by this key', async () => {
    await writeTrail();
    sealAll();
    h.db
      .prepare(`UPDATE audit_checkpoints SET signature = ?`)
      .run(Buffer.alloc(64).toString('base64'));
    const r = await verify();
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'signature' })]);
  });

  it('signs each stretch of entry time, so a long history sealed at once can be pruned in segments', async () => {
    const a = h.hello('agent-a');
    for (let i = 0; i < 6; i++) {
      await h.engine.request(a, req({ description: `read ${i}` }));
      h.clock.advance(CHECKPOINT_MS);
    }
    h.work.flush();
    sealAll();
    expect(chain.checkpoints().length).toBeGreaterThanOrEqual(6);
    expect((await verify()).ok).toBe(true);
  });

  it('counts entries written since the last seal as not yet chained', async () => {
    await writeTrail(2);
    sealAll();
    await writeTrail(1);
    const r = await verify();
    expect(r.ok).toBe(true);
    expect(r.unsealed).toBeGreaterThan(0);
  });
});

describe('retention with the audit chain', () => {
  const DAY = 24 * 60 * 60 * 1000;
  let h: EngineHarness;
  let chain: AuditChainRepository;
  let sealer: AuditSealer;
  let retention: RetentionService;

  beforeEach(() => {
    h = new EngineHarness();
    chain = new AuditChainRepository(h.db);
    sealer = sealerOver(h, chain, SETTLE_MS);
    retention = new RetentionService({
      db: h.db,
      clock: h.clock,
      settings: () => h.settings.get(),
      work: h.work,
      transcriptsDir: join(h.dir, 'transcripts'),
      archive: h.archive,
      chain,
    });
    h.engine.admin.call('settings.set', { key: 'retention.days', value: 1 });
  });
  afterEach(async () => {
    retention.stop();
    await h.close();
  });

  it('prunes whole signed segments only, and the chain still verifies from its new start', async () => {
    const a = h.hello('agent-a');
    // Two days of history, an hour apart, sealed as it goes.
    for (let i = 0; i < 48; i++) {
      await h.engine.request(a, {
        action: 'read_file',
        description: `r${i}`,
        urgency: 'normal',
        wait: false,
      });
      h.engine.classify(a, { action: 'git_push', target: `o${i}` });
      h.work.flush();
      h.clock.advance(60 * 60 * 1000);
      sealer.seal(h.clock.now() - SETTLE_MS);
    }
    sealer.checkpoint();
    const before = await verifyAuditChain(chain, key.publicKey);
    expect(before.ok).toBe(true);

    const r = await retention.prune({ dryRun: false });
    expect(r.audit.count + r.requests.count).toBeGreaterThan(0);
    const base = chain.base();
    expect(base).toBeDefined();
    // The new start is a signed checkpoint, and nothing chained past it was deleted.
    expect(chain.checkpoints()[0]).toMatchObject({ seq: base?.seq, hash: base?.hash });
    const cutoff = h.clock.now() - DAY;
    const oldestKept = h.db
      .prepare('SELECT min(at) FROM audit WHERE seq > ?')
      .pluck()
      .get(base?.seq) as number;
    expect(oldestKept).toBeLessThan(cutoff + CHECKPOINT_MS * 2);
    expect(
      h.db.prepare('SELECT count(*) FROM audit_chain WHERE seq <= ?').pluck().get(base?.seq),
    ).toBe(0);
    const after = await verifyAuditChain(chain, key.publicKey);
    expect(after.findings).toEqual([]);
    expect(after.startsAfter).toBe(base?.seq);

    // A deletion past the start is still found.
    const victim = h.db
      .prepare('SELECT seq FROM audit WHERE seq > ? ORDER BY seq LIMIT 1')
      .pluck()
      .get(base?.seq) as number;
    h.db.prepare('DELETE FROM audit WHERE seq = ?').run(victim);
    expect((await verifyAuditChain(chain, key.publicKey)).findings).toEqual([
      expect.objectContaining({ kind: 'deleted', seq: victim }),
    ]);
  });

  it('keeps old entries a signed checkpoint does not cover yet', async () => {
    const a = h.hello('agent-a');
    await h.engine.request(a, {
      action: 'read_file',
      description: 'r',
      urgency: 'normal',
      wait: false,
    });
    h.work.flush();
    h.clock.advance(SETTLE_MS + 1);
    sealer.seal(h.clock.now() - SETTLE_MS);
    // Chained but never signed: two days later, retention leaves it.
    h.clock.advance(2 * DAY);
    const r = await retention.prune({ dryRun: false });
    expect(r.requests.count).toBe(0);
    expect(r.audit.count).toBe(0);
    expect((await verifyAuditChain(chain, key.publicKey)).ok).toBe(true);
  });
});

describe('the sealer on its timer', () => {
  let h: EngineHarness;
  let chain: AuditChainRepository;
  let sealer: AuditSealer;
  /** The event loop's turns between two ticks (the sealer yields between batches). */
  let turnMs = 5;
  beforeEach(() => {
    h = new EngineHarness();
    chain = new AuditChainRepository(h.db);
    sealer = sealerOver(h, chain, 1_000, { busyWritesPerTick: 100 });
    sealer.start();
    turnMs = 5;
  });
  afterEach(async () => {
    sealer.stop();
    await h.close();
  });
  const turns = () => new Promise((resolve) => setTimeout(resolve, turnMs));
  /** Moves the clock a tick (2 s) at a time, the event loop turning in between as it would. */
  const tick = async (between?: () => void) => {
    between?.();
    h.work.flush();
    h.clock.advance(2_000);
    await turns();
  };

  it('chains settled entries in the background and signs the head at stop', async () => {
    const a = h.hello('agent-a');
    for (let i = 0; i < 300; i++) await h.engine.request(a, { ...req(), target: `file-${i}` });
    h.work.flush();
    expect(chain.head()).toBeUndefined();
    await tick();
    await tick();
    // The sealing goes on a batch a turn (100 entries): a loaded machine may need more turns.
    for (let t = 0; t < 40 && chain.head()?.seq !== chain.newestSeq(); t++) await turns();
    expect(chain.newestSeq()).toBeGreaterThan(300);
    expect(chain.head()?.seq).toBe(chain.newestSeq());
    sealer.stop();
    expect(chain.latestCheckpoint()?.seq).toBe(chain.newestSeq());
    expect((await verifyAuditChain(chain, key.publicKey)).ok).toBe(true);
  });

  it('holds off while agents keep the daemon busy, at most a minute', async () => {
    h.hello('agent-a');
    // Entries written straight through the unit of work, as fast as a flood of agents would.
    const burst = () => {
      for (let i = 0; i < 150; i++) h.work.record('rule.matched', { data: { i } });
    };
    await tick();
    await tick();
    const sealedBefore = chain.head()?.seq ?? 0;
    // Bursts past the busy mark every tick: for under a minute nothing more is chained...
    for (let t = 0; t < 25; t++) await tick(burst);
    expect(chain.head()?.seq ?? 0).toBe(sealedBefore);
    // ...then what has waited a minute is chained, busy or not...
    turnMs = 40;
    for (let t = 0; t < 10; t++) await tick(burst);
    expect(chain.head()?.seq ?? 0).toBeGreaterThanOrEqual(sealedBefore + 5 * 150);
    // ...and once the flood stops, the rest as it settles.
    for (let t = 0; t < 20 && chain.head()?.seq !== chain.newestSeq(); t++) await tick();
    expect(chain.head()?.seq).toBe(chain.newestSeq());
    expect((await verifyAuditChain(chain, key.publicKey)).ok).toBe(true);
  });

  /**
   * `classify` writes nothing per call, so a flood of it leaves no entry to count: the sealer
   * reads the event loop's utilisation too, and holds off while calls keep it busy.
   */
  it('holds off while the event loop is busy with calls that write nothing', async () => {
    sealer.stop();
    sealer = sealerOver(h, chain, 1_000, {
      busyWritesPerTick: 100,
      loopBusy: (
        (activity) => () =>
          activity.busySinceLast()
      )(new LoopActivity()),
    });
    sealer.start();
    const a = h.hello('agent-a');
    for (let i = 0; i < 300; i++) await h.engine.request(a, { ...req(), target: `file-${i}` });
    h.work.flush();
    // Synchronous work between the ticks, as answering calls is; none of it writes.
    const serveCalls = () => {
      const end = Date.now() + 25;
      while (Date.now() < end) {
        // a turn's work
      }
    };
    for (let t = 0; t < 6; t++) await tick(serveCalls);
    expect(chain.head()).toBeUndefined();
    // The calls stop: what settled is chained.
    for (let t = 0; t < 5 && chain.head()?.seq !== chain.newestSeq(); t++) await tick();
    expect(chain.head()?.seq).toBe(chain.newestSeq());
    expect((await verifyAuditChain(chain, key.publicKey)).ok).toBe(true);
  });
});
