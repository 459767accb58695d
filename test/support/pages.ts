/**
 * Reads a cursor-paged list to its end: `read` gets the cursor to pass (none for the first
 * page) and answers a page; every page is returned in order, for the test to check each one
 * and what they hold together.
 */
export function allPages<P extends { nextCursor?: string | undefined }>(
  read: (at: { cursor?: string }) => P,
): P[] {
  const pages: P[] = [];
  let cursor: string | undefined;
  do {
    const page = read(cursor ? { cursor } : {});
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}
