import { type CSSProperties, type ReactNode, useRef } from 'react';
import type { PagedState } from '../state/use-paged-query';
import { useRowWindow } from '../util/use-window';

/** Items each call of a paged list loads; a list grows a page at a time as it is scrolled. */
export const PAGE = 100;
/** Lists up to this long are drawn whole; longer ones only around what is in view. */
export const DRAWN_WHOLE = 150;

/**
 * Table rows standing in for the rows the window does not draw, so the scroll bar and the
 * position of what is drawn stay right. `data-spacer` keeps them out of row measuring.
 */
function SpacerRow({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    <tr data-spacer="" aria-hidden="true" className="spacer-row">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

interface WindowedProps<T> {
  items: readonly T[];
  /** Lists up to this long are drawn whole (default {@link DRAWN_WHOLE}). */
  drawnWhole?: number;
  /** Loads the next page; called when the end of the list comes into view. */
  onNearEnd?: (() => void) | undefined;
  /** One keyed row (`<tr>` or `<li>`) for an item at `index` in `items`. */
  renderItem: (item: T, index: number) => ReactNode;
}

/**
 * The body of a long table, drawn only around what is in view: spacer rows of `columns`
 * cells stand in for the others, and `data-count` says how many rows are loaded.
 */
export function WindowedTableBody<T>({
  items,
  columns,
  drawnWhole = DRAWN_WHOLE,
  onNearEnd,
  renderItem,
}: WindowedProps<T> & { columns: number }) {
  const body = useRef<HTMLTableSectionElement>(null);
  const drawn = useRowWindow(body, items.length, drawnWhole, onNearEnd);
  return (
    <tbody ref={body} data-count={items.length}>
      <SpacerRow height={drawn.before} columns={columns} />
      {items.slice(drawn.start, drawn.end).map((item, i) => renderItem(item, drawn.start + i))}
      <SpacerRow height={drawn.after} columns={columns} />
    </tbody>
  );
}

/**
 * A long list (`ul`, or `ol` when `ordered`), drawn only around what is in view: padding
 * stands in for the other items, and `data-count` says how many are loaded.
 */
export function WindowedList<T>({
  items,
  drawnWhole = DRAWN_WHOLE,
  onNearEnd,
  renderItem,
  ordered = false,
  className,
  label,
  testId,
}: WindowedProps<T> & {
  ordered?: boolean;
  className: string;
  /** The list's aria-label, when nothing else names it. */
  label?: string;
  testId: string;
}) {
  const ulRef = useRef<HTMLUListElement>(null);
  const olRef = useRef<HTMLOListElement>(null);
  const drawn = useRowWindow(ordered ? olRef : ulRef, items.length, drawnWhole, onNearEnd);
  const style: CSSProperties = { paddingTop: drawn.before, paddingBottom: drawn.after };
  const rows = items
    .slice(drawn.start, drawn.end)
    .map((item, i) => renderItem(item, drawn.start + i));
  const attributes = {
    className,
    'aria-label': label,
    'data-testid': testId,
    'data-count': items.length,
    style,
  };
  return ordered ? (
    <ol ref={olRef} {...attributes}>
      {rows}
    </ol>
  ) : (
    <ul ref={ulRef} {...attributes}>
      {rows}
    </ul>
  );
}

/**
 * Under a paged list: how many are loaded out of how many (when the daemon counts them), and
 * that scrolling loads more. Nothing when the whole list is loaded and short enough that
 * counting says nothing new.
 */
export function PagedFooter({
  list,
  noun,
  testId,
}: {
  list: Pick<PagedState<unknown>, 'items' | 'total' | 'hasMore'>;
  noun: string;
  testId: string;
}) {
  if (!list.hasMore) return null;
  const shown = list.items.length;
  const of = list.total !== undefined ? ` of ${list.total.toLocaleString('en-US')}` : '';
  return (
    <p className="empty" data-testid={testId} data-shown={shown}>
      Showing {shown.toLocaleString('en-US')}
      {of} {noun}: scroll to load more.
    </p>
  );
}
