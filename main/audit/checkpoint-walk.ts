import type { AuditFinding } from '../../shared/protocol/audit-chain-methods';
import { verifyText } from '../../shared/node/hub-keys';
import type { ChainCheckpoint } from '../store/audit-chain-repository';
import { chainHash, checkpointText } from './audit-chain';

/**
 * A finding for each checkpoint not signed by `publicKey` (`whose`: "this Gatehouse's",
 * "this hub's"): a checkpoint re-signed with another key vouches for nothing.
 */
export function checkCheckpointSignatures(
  checkpoints: readonly ChainCheckpoint[],
  publicKey: string,
  whose: string,
  findings: AuditFinding[],
): void {
  for (const c of checkpoints)
    if (!(c.publicKey === publicKey && verifyText(publicKey, checkpointText(c), c.signature)))
      findings.push({
        kind: 'signature',
        seq: c.seq,
        detail: `the checkpoint at entry ${c.seq} is not signed by ${whose} key`,
      });
}

/**
 * The signed checkpoints along one walk of an audit chain, a machine's or the hub's. It keeps
 * the hash computed from the entries alone, never from the stored links: a chain rewritten to
 * match a change (every link after it recomputed) still misses the next signed checkpoint.
 * Findings go into the walk's own list, shared with the caller, since a finding made between
 * two checkpoints explains why the second is missed and no second finding is needed.
 */
export class CheckpointWalk {
  private computed: Buffer;
  private readonly due: ChainCheckpoint[];
  private findingsAtSegmentStart: number;

  /**
   * `checkpoints`: those past the walk's start, oldest first; `start`: the hash the walk
   * starts from (the genesis, or the checkpoint the chain starts at after retention).
   */
  constructor(
    checkpoints: readonly ChainCheckpoint[],
    start: Buffer,
    private readonly findings: AuditFinding[],
  ) {
    this.computed = start;
    this.due = [...checkpoints];
    this.findingsAtSegmentStart = findings.length;
  }

  /** Adds one entry, as the trail shows it, to the hash computed from the entries alone. */
  add(entry: unknown): void {
    this.computed = chainHash(this.computed, entry);
  }

  /**
   * The walk stands at the link of entry `seq`: each checkpoint at or before it must name
   * that entry and the computed hash. One missed is reported unless a finding since the
   * previous checkpoint explains it; either way the walk goes on from the signed hash, so one
   * change is reported once and the rest of the chain still checks.
   */
  reach(seq: number): void {
    while (this.due[0] && this.due[0].seq <= seq) {
      const c = this.due.shift() as ChainCheckpoint;
      const reached = c.seq === seq && this.computed.toString('hex') === c.hash;
      const explained = this.findings.length > this.findingsAtSegmentStart;
      this.findingsAtSegmentStart = this.findings.length;
      if (reached) continue;
      this.computed = Buffer.from(c.hash, 'hex');
      if (explained) continue;
      this.findings.push({
        kind: 'checkpoint',
        seq: c.seq,
        detail: `the chain no longer reaches the checkpoint signed at ${new Date(c.at).toISOString()} (entry ${c.seq}): an entry at or before it was changed, deleted or moved, and the chain rewritten`,
      });
    }
  }

  /** The walk is over: each checkpoint still ahead names an entry the chain no longer has. */
  end(): void {
    for (const c of this.due.splice(0))
      this.findings.push({
        kind: 'checkpoint',
        seq: c.seq,
        detail: `the checkpoint signed at ${new Date(c.at).toISOString()} names entry ${c.seq}, past the end of the chain: the newest entries were deleted`,
      });
  }
}
