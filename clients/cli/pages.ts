import type { Writable } from 'node:stream';

/** One page of a paged admin list: its items, the count of every match, the next cursor. */
export interface PageOf<T> {
  items: T[];
  total?: number | undefined;
  nextCursor?: string | undefined;
}

/**
 * Every item of a paged list, page by page: only one page is in memory at a time. `max`
 * stops after that many items (undefined: every page).
 */
export async function* eachItem<T>(
  fetch: (cursor: string | undefined, limit: number) => Promise<PageOf<T>>,
  pageSize: number,
  max?: number,
  onPage?: (page: PageOf<T>, seen: number) => void,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  let seen = 0;
  do {
    const limit = max === undefined ? pageSize : Math.min(pageSize, max - seen);
    if (limit <= 0) return;
    const page = await fetch(cursor, limit);
    seen += page.items.length;
    onPage?.(page, seen);
    yield* page.items;
    cursor = page.nextCursor;
  } while (cursor);
}

/** Writes `text`, waiting when the stream's buffer is full (a pipe to a slow reader). */
export async function write(out: Writable, text: string): Promise<void> {
  if (out.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error): void => {
      out.off('drain', done);
      out.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    out.once('drain', done);
    out.once('error', done);
  });
}

/**
 * Items as a JSON array with one item per line, written as they come: a reader of the whole
 * output gets the array `--json` always printed, a line reader one item per line (each but the
 * last ends in a comma).
 */
export async function writeJsonArray(out: Writable, items: AsyncIterable<unknown>): Promise<void> {
  let held: string | undefined;
  await write(out, '[\n');
  for await (const item of items) {
    if (held !== undefined) await write(out, `${held},\n`);
    held = JSON.stringify(item);
  }
  await write(out, held === undefined ? ']\n' : `${held}\n]\n`);
}

/** Items as JSON Lines: one JSON value per line. */
export async function writeJsonLines(out: Writable, items: AsyncIterable<unknown>): Promise<void> {
  for await (const item of items) await write(out, `${JSON.stringify(item)}\n`);
}
