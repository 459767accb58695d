/**
 * Table rows standing in for the rows the window does not draw, so the scroll bar and the
 * position of what is drawn stay right. `data-spacer` keeps them out of row measuring.
 */
export function SpacerRow({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    <tr data-spacer="" aria-hidden="true" className="spacer-row">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

/**
 * Under a paged list: how many are loaded out of how many, and that scrolling loads more.
 * Nothing when the whole list is loaded and short enough that counting says nothing new.
 */
export function PagedFooter({
  shown,
  total,
  hasMore,
  noun,
  testId,
}: {
  shown: number;
  total?: number;
  hasMore: boolean;
  noun: string;
  testId: string;
}) {
  if (!hasMore) return null;
  const of = total !== undefined ? ` of ${total.toLocaleString('en-US')}` : '';
  return (
    <p className="empty" data-testid={testId} data-shown={shown}>
      Showing {shown.toLocaleString('en-US')}
      {of} {noun}: scroll to load more.
    </p>
  );
}
