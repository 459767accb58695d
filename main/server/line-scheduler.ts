/** A connection with complete lines waiting to be handled. */
export interface LineSource {
  /** Handles one waiting line; returns whether it has more and may go on now. */
  handleOne(): boolean;
  /** Complete lines read and not yet handled. */
  readonly waitingLines: number;
}

export interface LineSchedulerOptions {
  /** Lines of one deep connection handled per turn at most. */
  maxLinesPerTurn: number;
  /** Work per turn before yielding (setImmediate) so that new input is read. */
  budgetMs: number;
  /** Of which the deep connections may use at most this much. */
  deepBudgetMs: number;
  /** A connection with at most this many lines waiting pipelines "a few" calls. */
  shallowLines: number;
}

/**
 * Shares the daemon's time among connections with lines waiting. Each turn first serves the
 * shallow connections (at most `shallowLines` waiting: an agent pipelining a few calls) to the
 * end, those left over from an earlier turn first; then the deep ones (a client pipelining thousands) round-robin,
 * one line per connection per round, at most `maxLinesPerTurn` each, within `deepBudgetMs`.
 *
 * A turn that served shallow connections yields before the deep ones, so the group commit and
 * the answers to those calls go out before a deep backlog gets the budget; the next turn then
 * serves the deep ones whatever woke meanwhile, so they are slowed, never starved.
 */
export class LineScheduler {
  private waking: LineSource[] = [];
  private rotation: LineSource[] = [];
  private readonly waiting = new Set<LineSource>();
  private scheduled = false;
  /** The previous turn yielded before the deep connections: this one serves them. */
  private deepOwed = false;

  constructor(private readonly o: LineSchedulerOptions) {}

  /** `source` has lines waiting; it is served in the next turn. */
  wake(source: LineSource): void {
    if (this.waiting.has(source)) return;
    this.waiting.add(source);
    this.waking.push(source);
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
    const shallow: LineSource[] = [];
    const deep: LineSource[] = [];
    // Those left over from an earlier turn before those that just woke.
    for (const s of [...this.rotation, ...this.waking])
      (s.waitingLines <= this.o.shallowLines ? shallow : deep).push(s);
    this.waking = [];
    this.rotation = [];

    let servedShallow = false;
    for (let i = 0; i < shallow.length; i++) {
      if (performance.now() > deadline) {
        this.rotation = [...shallow.slice(i), ...deep];
        return this.schedule();
      }
      const s = shallow[i]!;
      servedShallow = true;
      let more = s.handleOne();
      for (let n = 1; more && n < this.o.shallowLines; n++) more = s.handleOne();
      if (!more) this.waiting.delete(s);
      else deep.push(s);
    }
    if (!deep.length) {
      this.deepOwed = false;
      return;
    }
    if (servedShallow && !this.deepOwed) {
      this.deepOwed = true;
      this.rotation = deep;
      return this.schedule();
    }
    this.deepOwed = false;
    this.serveDeep(deep, Math.min(deadline, performance.now() + this.o.deepBudgetMs));
  }

  /** Round-robin, one line per connection per round, until each is done or capped. */
  private serveDeep(sources: LineSource[], deadline: number): void {
    const served = new Map<LineSource, number>();
    let queue = sources;
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
