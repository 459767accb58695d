const NOT_BLANK = /\S/;

/**
 * Splits a byte stream into lines without ever holding more than `maxBytes` of one line.
 * Returns `false` from `push` when a line is too long; the caller then closes the connection.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Bytes of the unfinished line held so far. */
  get pendingBytes(): number {
    return this.size;
  }

  push(chunk: Buffer): boolean {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      if (this.size + piece.length > this.maxBytes) return false;
      let line: string;
      if (this.parts.length) {
        line = Buffer.concat([...this.parts, piece]).toString('utf8');
        this.parts = [];
        this.size = 0;
      } else {
        line = piece.toString('utf8');
      }
      start = nl + 1;
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (NOT_BLANK.test(trimmed)) this.onLine(trimmed);
    }
    const rest = chunk.subarray(start);
    if (rest.length) {
      if (this.size + rest.length > this.maxBytes) return false;
      this.parts.push(rest);
      this.size += rest.length;
    }
    return true;
  }
}

/** Deepest nesting of arrays and objects a message may have (docs/protocol.md: -32600 past it). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the JSON text nests arrays/objects deeper than `max`, found by one pass over the
 * characters (strings skipped) without parsing: a 100k-deep line must be refused before
 * anything recursive (a schema, JSON.stringify) meets it.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}
