/** One page of a list that grows with history, and where the next page starts. */
export interface Page<T> {
  items: T[];
  /** Every match, on every page. */
  total?: number;
  /** Absent on the last page. */
  nextCursor?: string;
}

/** The first items of a list (oldest first) and how many it has in all. */
export interface Counted<T> {
  items: T[];
  total: number;
}
