import type { Clock } from '../../shared/clock';
import { signText, type Ed25519Pair } from '../../shared/node/hub-keys';
import type { AuditChainRepository, ChainLink } from '../store/audit-chain-repository';
import { CHAIN_GENESIS, chainLink, checkpointText } from './audit-chain';

/** Entries sealed per write: a short transaction, so agents never wait long behind it. */
const SEAL_BATCH = 500;
/** How often the sealer looks for settled entries. */
const TICK_MS = 2_000;
/** Past this many entries written in one tick, sealing waits for a quieter one (see tick). */
const BUSY_WRITES_PER_TICK = 2_000;
/** ...but never lets the unsealed tail grow older than this. */
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
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastSeenSeq = 0;
  private lastSealedAt: number;
  private lastCheckpointAt: number;

  constructor(private readonly o: AuditSealerOptions) {
    this.lastSealedAt = o.clock.now();
    this.lastCheckpointAt = o.chain.latestCheckpoint()?.at ?? o.clock.now();
    this.lastSeenSeq = o.chain.head()?.seq ?? 0;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Seals everything (nothing can change once the engine has stopped) and signs the head. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    try {
      this.seal(Number.POSITIVE_INFINITY);
      this.checkpoint();
    } catch (error) {
      this.o.log?.(`could not seal the audit chain at stop: ${String(error)}`);
    }
  }

  private tick(): void {
    if (!this.o.writerIdle()) return;
    const now = this.o.clock.now();
    try {
      const newest = this.o.chain.newestSeq();
      const busy = newest - this.lastSeenSeq > BUSY_WRITES_PER_TICK;
      this.lastSeenSeq = newest;
      if (busy && now - this.lastSealedAt < MAX_LAG_MS) return;
      this.seal(now - this.o.settleMs(), SEAL_BATCH * 4);
      if (now - this.lastCheckpointAt >= this.o.checkpointMs()) this.checkpoint();
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
    if (sealed) this.lastSealedAt = this.o.clock.now();
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
