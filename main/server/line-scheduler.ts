/** A connection with complete lines waiting to be handled. */
export interface LineSource {
  /** Handles one waiting line; returns whether it has more and may go on now. */
  handleOne(): boolean;
}

/**
 * Shares the daemon's time fairly among connections with lines waiting: round-robin, one
 * line per connection per round, at most `maxLinesPerTurn` lines per connection and
 * `budgetMs` of work per turn, then it yields (setImmediate) so new input is read. A
 * connection that just woke goes first, so a client sending one call is not queued behind
 * the backlog of clients pipelining thousands.
 */
export class LineScheduler {
  private fresh: LineSource[] = [];
  private rotation: LineSource[] = [];
  private readonly waiting = new Set<LineSource>();
  private scheduled = false;

  constructor(private readonly o: { maxLinesPerTurn: number; budgetMs: number }) {}

  /** `source` has lines waiting; it is served in the next turn. */
  wake(source: LineSource): void {
    if (this.waiting.has(source)) return;
    this.waiting.add(source);
    this.fresh.push(source);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.turn();
    });
  }

  private turn(): void {
    const deadline = performance.now() + this.o.budgetMs;
    const served = new Map<LineSource, number>();
    // Fresh connections first, then the rotation in order.
    let queue = [...this.fresh, ...this.rotation];
    this.fresh = [];
    this.rotation = [];
    let next: LineSource[] = [];
    while (queue.length) {
      for (let i = 0; i < queue.length; i++) {
        const s = queue[i]!;
        if (performance.now() > deadline) {
          // Out of time: the rest keep their place for the next turn.
          this.rotation = [...next, ...queue.slice(i), ...this.rotation];
          return this.schedule();
        }
        const more = s.handleOne();
        const count = (served.get(s) ?? 0) + 1;
        served.set(s, count);
        if (!more) this.waiting.delete(s);
        else if (count >= this.o.maxLinesPerTurn) this.rotation.push(s);
        else next.push(s);
      }
      queue = next;
      next = [];
    }
    if (this.rotation.length) this.schedule();
  }
}
