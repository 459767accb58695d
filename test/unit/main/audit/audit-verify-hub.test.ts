import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditSealer } from '../../../../main/audit/audit-sealer';
import { verifyAuditChainWithHub } from '../../../../main/audit/audit-verify-hub';
import { verifyAuditChain } from '../../../../main/audit/audit-verifier';
import { CHAIN_GENESIS, chainLink, checkpointText } from '../../../../main/audit/audit-chain';
import type { AttachedHubAudit } from '../../../../main/server/attached-services';
import {
  AuditChainRepository,
  type ChainCheckpoint,
} from '../../../../main/store/audit-chain-repository';
import { hubLinkFiles } from '../../../../shared/node/hub-files';
import { generateEd25519, signText } from '../../../../shared/node/hub-keys';
import { EngineHarness } from '../../../support/engine-harness';

const SETTLE_MS = 61_000;
const key = generateEd25519();

/**
 * `audit verify --hub` over a real trail in the harness's SQLite database, with the hub's
 * copies of the checkpoints as the hub would hand them over the link.
 */
describe('the audit chain checked against the hub', () => {
  let h: EngineHarness;
  let chain: AuditChainRepository;
  let sealer: AuditSealer;
  let home: string;

  beforeEach(() => {
    h = new EngineHarness();
    home = mkdtempSync(join(tmpdir(), 'gatehouse-verify-hub-'));
    chain = new AuditChainRepository(h.db);
    sealer = new AuditSealer({
      chain,
      key,
      clock: h.clock,
      settleMs: () => SETTLE_MS,
      checkpointMs: () => 24 * 60 * 60 * 1000,
      writerIdle: () => !h.db.inTransaction,
    });
  });
  afterEach(async () => {
    await h.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** Some entries, then sealed and signed: one checkpoint per call. */
  async function segment(tag: string, entries = 4): Promise<void> {
    const a = h.hello(`agent-${tag}`);
    for (let i = 0; i < entries; i++) {
      await h.engine.request(a, {
        action: 'read_file',
        description: `${tag} ${i}`,
        urgency: 'normal',
        wait: false,
      });
      h.clock.advance(1000);
    }
    h.work.flush();
    h.clock.advance(SETTLE_MS + 1);
    sealer.seal(h.clock.now() - SETTLE_MS);
    sealer.checkpoint();
  }

  const hubHolding = (checkpoints: ChainCheckpoint[], pinnedKey = key.publicKey) =>
    ({
      url: 'https://hub.example',
      checkpoints: () => Promise.resolve({ checkpoints, pinnedKey }),
    }) satisfies AttachedHubAudit;

  /** An attacker's rewrite: every link recomputed, every local checkpoint re-signed. */
  function rewrite(): void {
    const hashes = new Map<number, Buffer>();
    let previous = CHAIN_GENESIS;
    const linked = new Set(chain.linksAfter(0, 10_000).map((l) => l.seq));
    for (const e of chain.entriesAfter(0, 10_000)) {
      if (!linked.has(e.seq)) continue;
      previous = chainLink(previous, e);
      hashes.set(e.seq, previous);
      h.db.prepare('UPDATE audit_chain SET hash = ? WHERE seq = ?').run(previous, e.seq);
    }
    for (const c of chain.checkpoints()) {
      // A checkpoint at an entry that is gone goes too.
      if (!hashes.has(c.seq)) {
        h.db.prepare('DELETE FROM audit_checkpoints WHERE seq = ?').run(c.seq);
        continue;
      }
      const hash = hashes.get(c.seq)!.toString('hex');
      h.db
        .prepare('UPDATE audit_checkpoints SET hash = ?, signature = ? WHERE seq = ?')
        .run(hash, signText(key.privateKeyPem, checkpointText({ ...c, hash })), c.seq);
    }
  }

  /** An attacker's edit by hand: the first entry after entry `seq` says something else. */
  function editFirstEntryAfter(seq: number): void {
    const [edited] = h.db
      .prepare('SELECT seq FROM audit WHERE seq > ? ORDER BY seq')
      .pluck()
      .all(seq) as number[];
    h.db.prepare(`UPDATE audit SET data_json = '{"note":"nothing"}' WHERE seq = ?`).run(edited);
  }

  it('agrees with a hub holding the same checkpoints', async () => {
    await segment('a');
    await segment('b');
    const held = chain.checkpoints();
    expect(held).toHaveLength(2);
    const r = await verifyAuditChainWithHub(chain, key.publicKey, hubHolding(held), home);
    expect(r.ok).toBe(true);
    expect(r.hub).toMatchObject({ joined: true, reachable: true, checkpoints: 2 });
    expect(r.hub.throughSeq).toBe(held[1]!.seq);
  });

  it('finds a consistent rewrite the local verify passes, in the segment where it is', async () => {
    await segment('a');
    await segment('b');
    const held = chain.checkpoints();
    const [first, second] = held as [ChainCheckpoint, ChainCheckpoint];
    editFirstEntryAfter(first.seq);
    rewrite();
    expect((await verifyAuditChain(chain, key.publicKey)).ok).toBe(true);
    const r = await verifyAuditChainWithHub(chain, key.publicKey, hubHolding(held), home);
    expect(r.ok).toBe(false);
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'hub', seq: second.seq })]);
    expect(r.findings[0]!.detail).toContain(
      `after entry ${first.seq} and at or before entry ${second.seq}`,
    );
  });

  it('reports a rewrite once, not again at the checkpoints the machine signed and sent after it', async () => {
    await segment('a');
    await segment('b');
    const [first, second] = chain.checkpoints() as [ChainCheckpoint, ChainCheckpoint];
    editFirstEntryAfter(first.seq);
    rewrite();
    // The daemon goes on over the rewritten chain, and the hub receives what it signs next.
    await segment('c');
    const third = chain.latestCheckpoint()!;
    const r = await verifyAuditChainWithHub(
      chain,
      key.publicKey,
      hubHolding([first, second, third]),
      home,
    );
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'hub', seq: second.seq })]);
  });

  it('finds the local checkpoints deleted after a rewrite', async () => {
    await segment('a');
    const held = chain.checkpoints();
    const [entry] = h.db.prepare('SELECT seq FROM audit ORDER BY seq').pluck().all() as number[];
    h.db.prepare('DELETE FROM audit WHERE seq = ?').run(entry);
    h.db.prepare('DELETE FROM audit_chain WHERE seq = ?').run(entry);
    rewrite();
    h.db.prepare('DELETE FROM audit_checkpoints').run();
    expect((await verifyAuditChain(chain, key.publicKey)).ok).toBe(true);
    const r = await verifyAuditChainWithHub(chain, key.publicKey, hubHolding(held), home);
    expect(r.findings.map((f) => f.kind)).toEqual(['hub']);
  });

  it('finds an entry deleted where the hub holds a checkpoint once, and checks the rest from there', async () => {
    await segment('a', 1);
    await segment('b');
    await segment('c');
    const held = chain.checkpoints();
    const [first] = held as [ChainCheckpoint];
    h.db.prepare('DELETE FROM audit WHERE seq = ?').run(first.seq);
    h.db.prepare('DELETE FROM requests WHERE audit_seq = ?').run(first.seq);
    h.db.prepare('DELETE FROM audit_chain WHERE seq = ?').run(first.seq);
    rewrite();
    expect((await verifyAuditChain(chain, key.publicKey)).ok).toBe(true);
    const r = await verifyAuditChainWithHub(chain, key.publicKey, hubHolding(held), home);
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'hub', seq: first.seq })]);
  });

  it('finds a hub checkpoint past the end of the chain: the newest entries deleted', async () => {
    await segment('a');
    const held = chain.checkpoints();
    const newest = chain.head()!.seq;
    h.db.prepare('DELETE FROM audit WHERE seq >= ?').run(newest - 1);
    h.db.prepare('DELETE FROM requests WHERE audit_seq >= ?').run(newest - 1);
    h.db.prepare('DELETE FROM audit_chain WHERE seq >= ?').run(newest - 1);
    h.db.prepare('DELETE FROM audit_checkpoints').run();
    const r = await verifyAuditChainWithHub(chain, key.publicKey, hubHolding(held), home);
    expect(r.findings).toEqual([
      expect.objectContaining({
        kind: 'hub',
        seq: newest,
        detail: expect.stringContaining('past the end'),
      }),
    ]);
  });

  it('finds another key pinned on the hub, and copies it did not sign', async () => {
    await segment('a');
    const other = generateEd25519();
    const forged = chain.checkpoints().map((c) => ({
      ...c,
      publicKey: other.publicKey,
      signature: signText(other.privateKeyPem, checkpointText(c)),
    }));
    const r = await verifyAuditChainWithHub(
      chain,
      key.publicKey,
      hubHolding(forged, other.publicKey),
      home,
    );
    expect(r.findings.map((f) => f.detail)).toEqual([
      expect.stringContaining('the hub pinned another audit key'),
      expect.stringContaining("not signed by this machine's audit key"),
    ]);
  });

  it('says why nothing was compared: not joined, or the hub out of reach', async () => {
    await segment('a');
    const alone = await verifyAuditChainWithHub(chain, key.publicKey, undefined, home);
    expect(alone).toMatchObject({ ok: true, hub: { joined: false, reachable: false } });
    // Joined (the link recorded in the data folder), but no link runs in this process.
    mkdirSync(hubLinkFiles(home).dir, { recursive: true });
    writeFileSync(hubLinkFiles(home).link, '{}');
    const unlinked = await verifyAuditChainWithHub(chain, key.publicKey, undefined, home);
    expect(unlinked.hub).toMatchObject({ joined: true, reachable: false });
    expect(unlinked.hub.error).toContain('runs no hub link');
    const down = await verifyAuditChainWithHub(
      chain,
      key.publicKey,
      {
        url: 'https://hub.example',
        checkpoints: () => Promise.reject(new Error('the hub is not reachable: the link is down')),
      },
      home,
    );
    expect(down.hub).toMatchObject({
      joined: true,
      reachable: false,
      error: 'the hub is not reachable: the link is down',
    });
  });
});
