/**
 * Remembers the answers of a costly lookup for a short while. Bounded: when full it starts
 * over, which is cheaper than tracking use and fine for a cache whose entries live a second.
 */
export class RecentCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 4096,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept answer for `key` while it is recent (and `fresh` says it still holds), or a new one. */
  get(key: string, compute: () => V, fresh?: (kept: V) => boolean): V {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > t && (fresh === undefined || fresh(hit.value))) return hit.value;
    const value = compute();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until: t + this.ttlMs });
    return value;
  }
}
