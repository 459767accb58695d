import { repeatEvery, type Clock, type TimerHandle } from '../../shared/clock';

/** How often the indexer looks for an idle moment. */
const TICK_MS = 500;

/** The tail of the requests table, as RequestsRepository offers it (request-key-index.ts). */
export interface RequestTail {
  /** Whether the tail holds enough to be worth indexing. */
  tailWantsIndexing(): boolean;
  /** Indexes one chunk of the tail in a transaction of its own; whether more is wanted. */
  indexTailChunk(): boolean;
}

export interface RequestTailIndexerOptions {
  tail: RequestTail;
  clock: Clock;
  /** True when the writer has no transaction open: a chunk never joins an agent's batch. */
  writerIdle: () => boolean;
  /** Whether the event loop served calls since the previous tick (loop-activity.ts). */
  loopBusy: () => boolean;
  log?: (message: string) => void;
}

/**
 * Writes the key tables' entries of the requests filed since the last bulk write
 * (request-key-index.ts) when the daemon is idle, a chunk per turn of the event loop, so that
 * no agent's call waits for them. A call that arrives meanwhile opens a batch, and the chunks
 * stop until the next idle tick. Under a flood with no idle moment, the requests themselves
 * index the tail once it passes TAIL_CAP.
 */
export class RequestTailIndexer {
  private timer: TimerHandle | undefined;
  private indexing = false;

  constructor(private readonly o: RequestTailIndexerOptions) {}

  start(): void {
    this.timer = repeatEvery(this.o.clock, TICK_MS, () => this.tick());
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private tick(): void {
    // Read every tick, so that each look covers one tick's time.
    const busy = this.o.loopBusy();
    if (this.indexing || busy || !this.o.tail.tailWantsIndexing()) return;
    this.indexing = true;
    void this.indexInTurns().finally(() => (this.indexing = false));
  }

  private async indexInTurns(): Promise<void> {
    try {
      while (this.timer && this.o.writerIdle() && this.o.tail.indexTailChunk())
        await new Promise((resolve) => setImmediate(resolve));
    } catch (error) {
      // A full disk or a busy file: the tail stays walked by reads, and the next tick tries again.
      this.o.log?.(`could not index the requests' tail: ${String(error)}`);
    }
  }
}
