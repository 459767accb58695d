/** An action seen recently. */
export interface DedupEntry {
  firstSeenAt: number;
  lastSeenAt: number;
  count: number;
}

/**
 * Remembers recent action keys for a time window, bounded by LRU eviction (seed 002's
 * ActionDeduplicator). The caller builds the key; this class is deliberately generic. The
 * guard chain uses it so that the same warning is not published over and over.
 */
export class ActionDeduplicator {
  // A Map iterates in insertion order; re-inserting on every hit makes it an LRU.
  private readonly entries = new Map<string, DedupEntry>();

  constructor(
    private readonly windowMs = 3_600_000,
    private readonly maxEntries = 10_000,
  ) {}

  isDuplicate(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && now - entry.firstSeenAt < this.windowMs;
  }

  /** Records `key` and says whether it was already seen inside the window. */
  checkAndRecord(key: string, now: number): { isDuplicate: boolean; entry: DedupEntry } {
    const seen = this.entries.get(key);
    if (seen && now - seen.firstSeenAt < this.windowMs) {
      seen.count++;
      seen.lastSeenAt = now;
      this.entries.delete(key);
      this.entries.set(key, seen);
      return { isDuplicate: true, entry: seen };
    }
    const entry = { firstSeenAt: now, lastSeenAt: now, count: 1 };
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    return { isDuplicate: false, entry };
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
