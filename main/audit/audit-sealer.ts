import { repeatEvery, type Clock, type TimerHandle } from '../../shared/clock';
import { signText, type Ed25519Pair } from '../../shared/node/hub-keys';
import type { AuditChainRepository, ChainLink } from '../store/audit-chain-repository';
import { CHAIN_GENESIS, chainLink, checkpointText } from './audit-chain';

/** Entries sealed per write: a short transaction, so agents never wait long behind it. */
const SEAL_BATCH = 500;
/**
 * Entries one turn of the event loop seals from the timer: about half a millisecond of
 * reading and hashing, so the calls that arrive meanwhile wait no longer than that.
 */
const TURN_BATCH = 100;
/** At most this many entries are chained when Gatehouse stops (about 0.2 s of hashing). */
const STOP_SEAL_MAX = 20_000;
/** How often the sealer looks for settled entries. */
const TICK_MS = 2_000;
/** Past this many entries written in one tick, sealing waits for a quieter one (see tick). */
const BUSY_WRITES_PER_TICK = 2_000;
/** ...but never lets an entry wait longer than this (after it settled) for its link. */
const MAX_LAG_MS = 60_000;

export interface AuditSealerOptions {
  chain: AuditChainRepository;
  key: Ed25519Pair;
  clock: Clock;
  /** How long an entry may still change after it is written (classify folding's window). */
  settleMs: () => number;
  checkpointMs: () => number;
  /** True when the writer has no transaction open: a seal never splits a batch. */
  writerIdle: () => boolean;
  log?: (message: string) => void;
  /** Entries per tick past which the daemon counts as busy (default `BUSY_WRITES_PER_TICK`). */
  busyWritesPerTick?: number;
  /**
   * Whether the event loop was busy serving calls since the previous tick (core.ts: its
   * utilisation, main/store/loop-activity.ts). Calls that write nothing (`classify`) leave no
   * entry to count, yet sealing beside them slowed every one of them.
   */
  loopBusy?: () => boolean;
}

/**
 * Chains the audit trail: each settled entry gets a link (the hash of the link before it and
 * the entry), and the chain's head is signed at intervals and when Gatehouse stops.
 *
 * Sealing runs after the fact rather than in the agents' path: an entry is sealed once it can
 * no longer change (a folded classification is rewritten for `settleMs`), in batches of a few
 * hundred, from a timer. Under a burst of calls it waits (at most `MAX_LAG_MS`), so the
 * hashing never competes with answering agents; an entry is at risk of a silent edit only
 * until it is sealed, and the file is out of an agent's reach in any case.
 */
export class AuditSealer {
  private timer: TimerHandle | undefined;
  /** A timer's sealing is still going on (it yields between batches). */
  private sealing = false;
  private lastSeenSeq = 0;
  private lastCheckpointAt: number;

  constructor(private readonly o: AuditSealerOptions) {
    this.lastCheckpointAt = o.chain.latestCheckpoint()?.at ?? o.clock.now();
    this.lastSeenSeq = o.chain.head()?.seq ?? 0;
  }

  start(): void {
    this.timer = repeatEvery(this.o.clock, TICK_MS, () => this.tick());
  }

  /** Seals what is left (nothing can change once the engine has stopped) and signs the head. */
  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    try {
      // Bounded, so a stop after a flood stays prompt; the rest is chained at the next start.
      this.seal(Number.POSITIVE_INFINITY, STOP_SEAL_MAX);
      this.checkpoint();
    } catch (error) {
      this.o.log?.(`could not seal the audit chain at stop: ${String(error)}`);
    }
  }

  private tick(): void {
    if (this.sealing) return;
    const now = this.o.clock.now();
    const settled = now - this.o.settleMs();
    let before = settled;
    try {
      const newest = this.o.chain.newestSeq();
      // Both read every tick, so each covers one tick.
      const loopBusy = this.o.loopBusy?.() ?? false;
      const busy =
        newest - this.lastSeenSeq > (this.o.busyWritesPerTick ?? BUSY_WRITES_PER_TICK) || loopBusy;
      this.lastSeenSeq = newest;
      // Busy: only what has waited longer than the lag allows (none, in a short burst).
      if (busy) before = settled - MAX_LAG_MS;
      const oldest = this.oldestUnsealedAt();
      if (oldest === undefined || oldest >= before) {
        // Nothing to seal: the head may still be due for its signature.
        if (!busy && now - this.lastCheckpointAt >= this.o.checkpointMs()) this.checkpoint();
        return;
      }
    } catch (error) {
      this.o.log?.(`could not read the audit trail: ${String(error)}`);
      return;
    }
    this.sealing = true;
    void this.sealInTurns(now, before).finally(() => (this.sealing = false));
  }

  /** When the oldest entry without a link was written (undefined: none). */
  private oldestUnsealedAt(): number | undefined {
    const head = this.o.chain.head()?.seq ?? this.o.chain.base()?.seq ?? 0;
    const [next] = this.o.chain.entriesAfter(head, 1);
    return next && Date.parse(next.at);
  }

  /**
   * Seals the entries written before `before`, a small batch per turn of the event loop with
   * agents' calls served in between, and signs the head when a checkpoint is due.
   */
  private async sealInTurns(now: number, before: number): Promise<void> {
    try {
      while (this.timer && this.o.writerIdle() && this.seal(before, TURN_BATCH) === TURN_BATCH)
        await new Promise((resolve) => setImmediate(resolve));
      if (this.timer && now - this.lastCheckpointAt >= this.o.checkpointMs()) this.checkpoint();
    } catch (error) {
      // A full disk or a busy file: the next tick tries again, nothing is lost.
      this.o.log?.(`could not seal the audit chain: ${String(error)}`);
    }
  }

  /**
   * Links every entry written before `before` (ms) that has no link yet, in order, up to
   * `max` entries; how many it linked. Each stretch of `checkpointMs` of entry time ends in a
   * checkpoint, so retention can later drop old history in whole signed segments, also when a
   * long history is sealed at once (the first start after an upgrade).
   */
  seal(before: number, max = Number.POSITIVE_INFINITY): number {
    let head = this.o.chain.head() ?? this.start0();
    let headAt = this.headAt(head);
    const bucketMs = this.o.checkpointMs();
    let sealed = 0;
    while (sealed < max) {
      const entries = this.o.chain.entriesAfter(head.seq, Math.min(SEAL_BATCH, max - sealed));
      const links: ChainLink[] = [];
      let previous = head.hash;
      let stopped = false;
      for (const entry of entries) {
        const at = Date.parse(entry.at);
        if (at >= before) {
          stopped = true;
          break;
        }
        if (headAt !== undefined && Math.floor(at / bucketMs) !== Math.floor(headAt / bucketMs)) {
          // The entry opens a new stretch: what is linked so far is signed first.
          this.o.chain.appendLinks(links.splice(0));
          this.checkpoint(headAt);
        }
        previous = chainLink(previous, entry);
        links.push({ seq: entry.seq, hash: previous });
        headAt = at;
        sealed++;
      }
      this.o.chain.appendLinks(links);
      const last = links.at(-1);
      if (last) head = last;
      if (stopped || entries.length < SEAL_BATCH || !entries.length) break;
    }
    return sealed;
  }

  /**
   * Signs the chain's head, when it moved since the last checkpoint. `throughAt` is when the
   * head entry was written (read from it when not given).
   */
  checkpoint(throughAt?: number): void {
    const head = this.o.chain.head();
    const last = this.o.chain.latestCheckpoint();
    this.lastCheckpointAt = this.o.clock.now();
    if (!head || (last && last.seq >= head.seq)) return;
    const base = this.o.chain.base();
    const from = last ?? { seq: base?.seq ?? 0, entries: 0 };
    const c = {
      seq: head.seq,
      hash: head.hash.toString('hex'),
      at: this.lastCheckpointAt,
      throughAt: throughAt ?? this.headAt(head) ?? this.lastCheckpointAt,
      entries: from.entries + this.o.chain.countLinks(from.seq, head.seq),
    };
    this.o.chain.addCheckpoint({
      ...c,
      publicKey: this.o.key.publicKey,
      signature: signText(this.o.key.privateKeyPem, checkpointText(c)),
    });
  }

  /** When the entry at the head was written; undefined at the chain's very start. */
  private headAt(head: ChainLink): number | undefined {
    if (head.seq === 0) return undefined;
    const [entry] = this.o.chain.entriesAfter(head.seq - 1, 1);
    return entry && entry.seq === head.seq ? Date.parse(entry.at) : undefined;
  }

  /** Where the chain starts: after the base retention left, or from the genesis value. */
  private start0(): ChainLink {
    const base = this.o.chain.base();
    return base
      ? { seq: base.seq, hash: Buffer.from(base.hash, 'hex') }
      : { seq: 0, hash: CHAIN_GENESIS };
  }
}
