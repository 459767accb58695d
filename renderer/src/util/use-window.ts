import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

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
 * screenful of DOM. Rows are taken to be as tall as the first one drawn. Lists up to
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
    const first = listRef.current?.firstElementChild;
    const h = first instanceof HTMLElement ? first.getBoundingClientRect().height : 0;
    if (h > 0 && Math.abs(h - rowHeight) > 0.5) setRowHeight(h);
  }, [listRef, rowHeight, count]);

  useEffect(() => {
    const measure = (): void => {
      const list = listRef.current;
      if (!list) return;
      // How far the page has scrolled past the list's top, and how much of it shows.
      setView({ top: -list.getBoundingClientRect().top, height: window.innerHeight });
    };
    measure();
    // Capture: a scrolling pane's scroll events do not bubble to the window.
    window.addEventListener('scroll', measure, { passive: true, capture: true });
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('scroll', measure, { capture: true });
      window.removeEventListener('resize', measure);
    };
  }, [listRef]);

  const h = rowHeight || 48;
  const start = windowed ? Math.max(0, Math.floor(view.top / h) - OVERSCAN) : 0;
  const end = windowed
    ? Math.min(count, Math.ceil((view.top + view.height) / h) + OVERSCAN)
    : count;

  useEffect(() => {
    if (end >= count - OVERSCAN) onNearEnd?.();
  }, [end, count, onNearEnd]);

  return { start, end, before: start * h, after: (count - end) * h };
}
