import { useCallback, useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/** Rows drawn above and below what the window shows, so a scroll does not reveal a gap. */
const OVERSCAN = 10;

/** The rows of a long list the page shows now, and the space the others take. */
export interface RowWindow {
  start: number;
  end: number;
  /** Height of the rows above `start` and below `end`, in pixels. */
  before: number;
  after: number;
}

/**
 * Windowing for a long list in the page's scroll: only the rows in view (and a few around)
 * are drawn, the rest is empty space of the same height, so a queue of thousands costs a
 * screenful of DOM (a table's body marks its spacer rows `data-spacer`). Rows are taken to be
 * as tall as the first one drawn. Lists up to
 * `from` rows are drawn whole. `onNearEnd` runs when the end of the list comes into view.
 */
export function useRowWindow(
  listRef: RefObject<HTMLElement | null>,
  count: number,
  from: number,
  onNearEnd?: () => void,
): RowWindow {
  const [rowHeight, setRowHeight] = useState(0);
  const [view, setView] = useState({ top: 0, height: 800 });
  const windowed = count > from;

  useLayoutEffect(() => {
    // The first drawn row, not a spacer standing in for the rows above it.
    const first = listRef.current?.querySelector(':scope > :not([data-spacer])');
    const h = first instanceof HTMLElement ? first.getBoundingClientRect().height : 0;
    if (h > 0 && Math.abs(h - rowHeight) > 0.5) setRowHeight(h);
  }, [listRef, rowHeight, count]);

  const measure = useCallback((): void => {
    const list = listRef.current;
    if (!list) return;
    // How far the page has scrolled past the list's top, and how much of it shows.
    setView({ top: -list.getBoundingClientRect().top, height: window.innerHeight });
  }, [listRef]);

  useEffect(() => {
    // Capture: a scrolling pane's scroll events do not bubble to the window.
    window.addEventListener('scroll', measure, { passive: true, capture: true });
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('scroll', measure, { capture: true });
      window.removeEventListener('resize', measure);
    };
  }, [measure]);
  // Rows arriving (or what is above the list loading) move the list without a scroll.
  useLayoutEffect(measure, [measure, count]);

  const h = rowHeight || 48;
  const start = windowed ? Math.max(0, Math.floor(view.top / h) - OVERSCAN) : 0;
  const end = windowed
    ? Math.min(count, Math.ceil((view.top + view.height) / h) + OVERSCAN)
    : count;

  // The last row in view, drawn whole or not: the next page loads only once the end shows.
  const lastInView = Math.ceil((view.top + view.height) / h);
  const nearEnd = count > 0 && lastInView >= count - OVERSCAN;
  useEffect(() => {
    if (nearEnd) onNearEnd?.();
  }, [nearEnd, count, onNearEnd]);

  return { start, end, before: start * h, after: (count - end) * h };
}
