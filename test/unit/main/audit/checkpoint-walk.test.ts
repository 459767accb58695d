import { describe, expect, it } from 'vitest';
import { CHAIN_GENESIS, chainHash, checkpointText } from '../../../../main/audit/audit-chain';
import { CheckpointWalk, checkCheckpointSignatures } from '../../../../main/audit/checkpoint-walk';
import type { ChainCheckpoint } from '../../../../main/store/audit-chain-repository';
import { generateEd25519, signText, type Ed25519Pair } from '../../../../shared/node/hub-keys';
import type { AuditFinding } from '../../../../shared/protocol/audit-chain-methods';

const key = generateEd25519();
const otherKey = generateEd25519();

interface Entry {
  seq: number;
  type: string;
  detail: string;
}

const entries = (n: number): Entry[] =>
  Array.from({ length: n }, (_, i) => ({ seq: i + 1, type: 'request', detail: `entry ${i + 1}` }));

/** A checkpoint signed over the chain of `chain` through entry `seq`, as a sealer signs it. */
function checkpointAt(chain: readonly Entry[], seq: number, signer: Ed25519Pair = key) {
  let hash = CHAIN_GENESIS;
  for (const e of chain) if (e.seq <= seq) hash = chainHash(hash, e);
  const c = {
    seq,
    hash: hash.toString('hex'),
    at: seq * 1000,
    throughAt: seq * 1000,
    entries: seq,
  };
  return {
    ...c,
    publicKey: signer.publicKey,
    signature: signText(signer.privateKeyPem, checkpointText(c)),
  } satisfies ChainCheckpoint;
}

/** Walks `chain` as both verifiers do: each entry added, then its place reached. */
function walk(
  chain: readonly Entry[],
  checkpoints: readonly ChainCheckpoint[],
  findings: AuditFinding[] = [],
  /** A finding the caller's own checks make at that entry (a link that does not follow). */
  callerFindsAt?: number,
): AuditFinding[] {
  const w = new CheckpointWalk(checkpoints, CHAIN_GENESIS, findings);
  for (const e of chain) {
    w.add(e);
    if (e.seq === callerFindsAt) findings.push({ kind: 'changed', seq: e.seq, detail: 'changed' });
    w.reach(e.seq);
  }
  w.end();
  return findings;
}

describe('the checkpoint walk shared by the machine and hub verifiers', () => {
  const chain = entries(9);
  const signed = [checkpointAt(chain, 3), checkpointAt(chain, 6), checkpointAt(chain, 9)];

  it('reaches every checkpoint of a chain as it was signed', () => {
    expect(walk(chain, signed)).toEqual([]);
  });

  it('misses the checkpoint after an entry changed (links rewritten), once, and checks the rest', () => {
    const changed = chain.map((e) => (e.seq === 5 ? { ...e, detail: 'nothing to see' } : e));
    const findings = walk(changed, signed);
    expect(findings).toEqual([
      expect.objectContaining({
        kind: 'checkpoint',
        seq: 6,
        detail: expect.stringContaining('no longer reaches') as unknown,
      }),
    ]);
  });

  it('finds a change in the last stretch too, and in each stretch that has one', () => {
    const changed = chain.map((e) =>
      e.seq === 2 || e.seq === 9 ? { ...e, detail: `${e.detail}, edited` } : e,
    );
    expect(walk(changed, signed).map((f) => [f.kind, f.seq])).toEqual([
      ['checkpoint', 3],
      ['checkpoint', 9],
    ]);
  });

  it('adds nothing when the caller already found why the stretch misses its checkpoint', () => {
    const changed = chain.map((e) => (e.seq === 5 ? { ...e, detail: 'nothing to see' } : e));
    expect(walk(changed, signed, [], 5).map((f) => [f.kind, f.seq])).toEqual([['changed', 5]]);
  });

  it("does not let a finding from an earlier stretch explain a later stretch's miss", () => {
    const changed = chain.map((e) => (e.seq === 5 ? { ...e, detail: 'nothing to see' } : e));
    expect(walk(changed, signed, [], 2).map((f) => [f.kind, f.seq])).toEqual([
      ['changed', 2],
      ['checkpoint', 6],
    ]);
  });

  it('counts findings made before the walk began as explaining nothing', () => {
    const changed = chain.map((e) => (e.seq === 5 ? { ...e, detail: 'nothing to see' } : e));
    const before: AuditFinding[] = [{ kind: 'signature', seq: 1, detail: 'earlier' }];
    expect(walk(changed, signed, before).map((f) => [f.kind, f.seq])).toEqual([
      ['signature', 1],
      ['checkpoint', 6],
    ]);
  });

  it('misses a checkpoint whose entry was deleted, and says so once (the next stretch is explained by it)', () => {
    const withoutSix = chain.filter((e) => e.seq !== 6);
    expect(walk(withoutSix, signed).map((f) => [f.kind, f.seq])).toEqual([['checkpoint', 6]]);
  });

  it('names each checkpoint past the end of a chain whose newest entries were deleted', () => {
    const findings = walk(chain.slice(0, 4), signed);
    expect(findings.map((f) => [f.kind, f.seq])).toEqual([
      ['checkpoint', 6],
      ['checkpoint', 9],
    ]);
    expect(findings[0]?.detail).toContain('past the end of the chain');
  });

  it('starts from the hash a chain pruned by retention starts at', () => {
    const start = Buffer.from(signed[0]!.hash, 'hex');
    const findings: AuditFinding[] = [];
    const w = new CheckpointWalk(signed.slice(1), start, findings);
    for (const e of chain.slice(3)) {
      w.add(e);
      w.reach(e.seq);
    }
    w.end();
    expect(findings).toEqual([]);
  });
});

describe('the signatures of checkpoints', () => {
  const chain = entries(3);

  it('accepts a checkpoint signed by the key', () => {
    const findings: AuditFinding[] = [];
    checkCheckpointSignatures([checkpointAt(chain, 3)], key.publicKey, "this hub's", findings);
    expect(findings).toEqual([]);
  });

  it('refuses one signed by another key, and one whose hash was changed after signing', () => {
    const findings: AuditFinding[] = [];
    const forged = { ...checkpointAt(chain, 2, otherKey), publicKey: key.publicKey };
    const rehashed = { ...checkpointAt(chain, 3), hash: CHAIN_GENESIS.toString('hex') };
    checkCheckpointSignatures(
      [checkpointAt(chain, 1), forged, rehashed],
      key.publicKey,
      "this Gatehouse's",
      findings,
    );
    expect(findings).toEqual([
      {
        kind: 'signature',
        seq: 2,
        detail: "the checkpoint at entry 2 is not signed by this Gatehouse's key",
      },
      {
        kind: 'signature',
        seq: 3,
        detail: "the checkpoint at entry 3 is not signed by this Gatehouse's key",
      },
    ]);
  });

  it('refuses a checkpoint that names another key, though that key signed it', () => {
    const findings: AuditFinding[] = [];
    checkCheckpointSignatures(
      [checkpointAt(chain, 3, otherKey)],
      key.publicKey,
      "this hub's",
      findings,
    );
    expect(findings.map((f) => f.detail)).toEqual([
      "the checkpoint at entry 3 is not signed by this hub's key",
    ]);
  });
});
