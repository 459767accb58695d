import type { Clock } from '../../shared/clock';
import { signText, type Ed25519Pair } from '../../shared/node/hub-keys';
import type { AuditFinding, AuditVerifyResult } from '../../shared/protocol/audit-chain-methods';
import { CHAIN_GENESIS, chainHash, checkpointText } from '../audit/audit-chain';
import { CheckpointWalk, checkCheckpointSignatures } from '../audit/checkpoint-walk';
import type { ChainCheckpoint } from '../store/audit-chain-repository';
import {
  addHubCheckpoint,
  countChained,
  hubAuditHead,
  hubCheckpoints,
  latestHubCheckpoint,
} from './store/audit-checkpoints-repo';
import { AUDIT_CHAIN_LOCK, auditAfter } from './store/audit-repo';
import type { SqlDatabase } from './store/sql';

/** How often a replica signs the head of the hub's audit chain (when it moved). */
export const HUB_CHECKPOINT_MS = 60_000;
const PAGE = 2_000;

/**
 * Signs the hub chain's head with the hub's key, when it moved since the last checkpoint.
 * Under the chain's lock, so replicas neither sign twice nor sign a head another is moving.
 */
export async function checkpointHubAudit(
  db: SqlDatabase,
  identity: Ed25519Pair,
  now: number,
): Promise<ChainCheckpoint | undefined> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_CHAIN_LOCK]);
    const head = await hubAuditHead(tx);
    const last = await latestHubCheckpoint(tx);
    if (!head || (last && last.seq >= head.seq)) return undefined;
    const c = {
      seq: head.seq,
      hash: head.hash,
      at: now,
      throughAt: head.at,
      entries: (last?.entries ?? 0) + (await countChained(tx, last?.seq ?? 0, head.seq)),
    };
    const checkpoint = {
      ...c,
      publicKey: identity.publicKey,
      signature: signText(identity.privateKeyPem, checkpointText(c)),
    };
    await addHubCheckpoint(tx, checkpoint);
    return checkpoint;
  });
}

/** Signs the head every `everyMs`; the result stops it and signs once more. */
export function startHubAuditCheckpoints(
  db: SqlDatabase,
  identity: Ed25519Pair,
  clock: Clock,
  everyMs = HUB_CHECKPOINT_MS,
): () => Promise<void> {
  const sign = () =>
    checkpointHubAudit(db, identity, clock.now()).catch((error: unknown) =>
      console.error('gatehouse hub: could not sign the audit chain:', error),
    );
  const timer = setInterval(() => void sign(), everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await sign();
  };
}

/**
 * Walks the hub's audit table from its first chained row and says where it and its chain
 * disagree: a row that does not follow from the one before it (changed, or one before it
 * deleted or moved: each row's number is part of what its link covers), a row written
 * without a link once the chain had begun, a checkpoint not signed by the hub's key, one the
 * chain no longer reaches (rewritten), or one past the chain's end (the newest rows deleted).
 * As on a machine, one hash follows the stored links (a change is reported once, where it
 * is) and one is computed from the rows alone (a rewritten chain fails at the next checkpoint).
 */
export async function verifyHubAudit(
  db: SqlDatabase,
  publicKey: string,
): Promise<AuditVerifyResult> {
  const findings: AuditFinding[] = [];
  const checkpoints = await hubCheckpoints(db);
  checkCheckpointSignatures(checkpoints, publicKey, "this hub's", findings);
  const walk = new CheckpointWalk(checkpoints, CHAIN_GENESIS, findings);
  let followed = CHAIN_GENESIS;
  let started = false;
  let lastSeq = 0;
  let checked = 0;
  let startsAfter: number | undefined;
  let cursor = 0;
  for (;;) {
    const rows = await auditAfter(db, cursor, PAGE);
    for (const { entry, hash } of rows) {
      cursor = entry.seq;
      if (hash === undefined) {
        // Written before the chain began (this hub's upgrade): nothing to check them against.
        if (!started) startsAfter = entry.seq;
        else
          findings.push({
            kind: 'added',
            seq: entry.seq,
            at: new Date(entry.at).toISOString(),
            detail: `entry ${entry.seq} (${entry.type}) has no link: it was written around the chain`,
          });
        continue;
      }
      started = true;
      checked++;
      walk.add(entry);
      if (!chainHash(followed, entry).equals(Buffer.from(hash, 'hex')))
        findings.push({
          kind: 'changed',
          seq: entry.seq,
          at: new Date(entry.at).toISOString(),
          detail: `entry ${entry.seq} (${entry.type}) does not follow from entry ${lastSeq}: it, or an entry between them, was changed, deleted or moved`,
        });
      followed = Buffer.from(hash, 'hex');
      lastSeq = entry.seq;
      walk.reach(entry.seq);
    }
    if (rows.length < PAGE) break;
  }
  walk.end();
  const latest = checkpoints.at(-1);
  return {
    ok: findings.length === 0,
    checked,
    sealedThrough: lastSeq,
    unsealed: 0,
    ...(startsAfter !== undefined ? { startsAfter } : {}),
    checkpoints: checkpoints.length,
    ...(latest ? { lastCheckpointAt: new Date(latest.at).toISOString() } : {}),
    publicKey,
    findings,
  };
}
