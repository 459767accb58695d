import type { ArchivedSession } from '../engine/kernel/ports';

/**
 * A transcript file, piece by piece: the text of
 * `JSON.stringify({ session, summary, transcript, requests }, null, 2) + '\n'`, byte for byte
 * (what readers have always parsed), made one page at a time. Each piece after the first is
 * one page of the transcript or of the requests, read from the session only when the piece
 * is asked for, so no more than a page is ever held.
 */
export function* archiveChunks(doc: ArchivedSession): Generator<string> {
  yield `{\n  "session": ${nested(doc.session, 1)},\n  "summary": ${nested(doc.summary, 1)},\n  "transcript": `;
  yield* arrayChunks(() => doc.nextTranscriptPage());
  yield ',\n  "requests": ';
  yield* arrayChunks(() => doc.nextRequestsPage());
  yield '\n}\n';
}

/** A value as JSON.stringify(…, null, 2) writes it `depth` levels down. */
function nested(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);
}

/** An array of the top-level object (depth 1), its elements a page at a time. */
function* arrayChunks(nextPage: () => unknown[]): Generator<string> {
  let first = true;
  for (let page = nextPage(); page.length; page = nextPage()) {
    let text = first ? '[' : ',';
    for (let i = 0; i < page.length; i++) text += `${i ? ',' : ''}\n    ${nested(page[i], 2)}`;
    first = false;
    yield text;
  }
  yield first ? '[]' : '\n  ]';
}
