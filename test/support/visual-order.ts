import type { Locator } from 'playwright-core';

/**
 * Where each letter of `word` is drawn, left to right on the screen, inside the element: the
 * x of each letter's box, found through the text node that holds `word`. A bidirectional
 * override the page obeyed draws `ecrof` with its `e` right of its `f`; text that shows in
 * the order it is stored draws them left to right. Undefined when no text node holds `word`.
 */
export async function letterPositions(
  element: Locator,
  word: string,
): Promise<number[] | undefined> {
  // Runs in the page; the Node side's types have no DOM, so the little it uses is declared.
  return element.evaluate((el, word) => {
    const dom = globalThis as unknown as PageDom;
    const walker = dom.document.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = (node.textContent ?? '').indexOf(word);
      if (at < 0) continue;
      const text = node;
      return [...word].map((_, i) => {
        const range = dom.document.createRange();
        range.setStart(text, at + i);
        range.setEnd(text, at + i + 1);
        return range.getBoundingClientRect().left;
      });
    }
    return undefined;
  }, word);
}

/** The part of the page's DOM `letterPositions` uses. */
interface PageDom {
  document: {
    createTreeWalker(root: unknown, whatToShow: number): { nextNode(): PageText | null };
    createRange(): {
      setStart(node: PageText, offset: number): void;
      setEnd(node: PageText, offset: number): void;
      getBoundingClientRect(): { left: number };
    };
  };
}
interface PageText {
  textContent: string | null;
}

/** Whether every x is right of the one before: the letters read left to right as stored. */
export const leftToRight = (xs: readonly number[] | undefined): boolean =>
  xs !== undefined && xs.length > 1 && xs.every((x, i) => i === 0 || x > xs[i - 1]!);

/** The bidirectional controls: none may reach the page's text where agent text is shown. */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
