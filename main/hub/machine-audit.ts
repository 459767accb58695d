import type { MachineCheckpoint } from '../../shared/hub-protocol';
import { CHECKPOINT_BATCH } from '../../shared/hub-protocol';
import { verifyText } from '../../shared/node/hub-keys';
import { checkpointText } from '../audit/audit-chain';
import { appendAudit } from './store/audit-repo';
import {
  keepMachineCheckpoint,
  machineCheckpointsAfter,
  pinAuditKey,
  pinnedAuditKey,
} from './store/audit-checkpoints-repo';
import type { SqlDatabase } from './store/sql';

/**
 * Stores the audit checkpoints a machine sent, in one transaction: each must be signed by the
 * machine's audit key, which the hub pins the first time (a checkpoint under another key is
 * refused and audited, the pin never replaced); each number is kept once, as first received (a
 * different copy sent later is audited as a conflict). Answers the highest number handled and,
 * when some were refused, why: the machine does not send them again on this link.
 */
export async function receiveCheckpoints(
  db: SqlDatabase,
  machineId: string,
  checkpoints: readonly MachineCheckpoint[],
  now: number,
): Promise<{ seq: number; refused?: string }> {
  return db.transaction(async (tx) => {
    let refused: string | undefined;
    let seq = 0;
    for (const c of checkpoints) {
      seq = Math.max(seq, c.seq);
      if (!verifyText(c.publicKey, checkpointText(c), c.signature)) {
        refused = 'a checkpoint whose signature does not hold';
        await appendAudit(tx, now, {
          type: 'machine.checkpoint_refused',
          machineId,
          data: { seq: c.seq, reason: 'bad_signature' },
        });
        continue;
      }
      const pinned = await pinAuditKey(tx, machineId, c.publicKey, now);
      if (pinned !== c.publicKey) {
        refused = "a checkpoint signed by another key than the machine's pinned audit key";
        await appendAudit(tx, now, {
          type: 'machine.checkpoint_refused',
          machineId,
          data: { seq: c.seq, reason: 'other_key', publicKey: c.publicKey, pinned },
        });
        continue;
      }
      const earlier = await keepMachineCheckpoint(tx, machineId, c, now);
      if (earlier && earlier.hash !== c.hash)
        await appendAudit(tx, now, {
          type: 'machine.checkpoint_conflict',
          machineId,
          data: { seq: c.seq, kept: earlier.hash, sent: c.hash },
        });
    }
    return { seq, ...(refused ? { refused } : {}) };
  });
}

/** A page of the hub's copies of a machine's checkpoints, with its pinned audit key. */
export async function listCheckpoints(
  db: SqlDatabase,
  machineId: string,
  afterSeq: number,
): Promise<{ checkpoints: MachineCheckpoint[]; pinnedKey?: string; more: boolean }> {
  const rows = await machineCheckpointsAfter(db, machineId, afterSeq, CHECKPOINT_BATCH + 1);
  const pinnedKey = await pinnedAuditKey(db, machineId);
  return {
    checkpoints: rows.slice(0, CHECKPOINT_BATCH),
    ...(pinnedKey ? { pinnedKey } : {}),
    more: rows.length > CHECKPOINT_BATCH,
  };
}
