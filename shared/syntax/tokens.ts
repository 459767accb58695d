/** A run of a line's text and the highlight.js scope it belongs to (none: plain text). */
export interface Token {
  text: string;
  scope?: string;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#x27': "'",
  '#39': "'",
};

// The whole vocabulary highlight.js's escaped output uses: a scope's span opened or closed,
// an entity of its escaping, or text with neither `<` nor `&`.
const PIECE =
  /<span class="((?:hljs|language)-[\w-]+(?: [\w-]+)*)">|<\/span>|&(amp|lt|gt|quot|#x27|#39);|[^<&]+/y;

/**
 * The tokens of highlight.js's HTML for one line, read back into text and scope names, so the
 * view renders them as React text (escaped by React) and never as HTML. Anything outside the
 * vocabulary above (a tag or an entity highlight.js does not write) means the output is not
 * what was expected: undefined, and the caller shows the line as plain text.
 */
export function tokensOf(highlighted: string): Token[] | undefined {
  const tokens: Token[] = [];
  const scopes: string[] = [];
  PIECE.lastIndex = 0;
  while (PIECE.lastIndex < highlighted.length) {
    const at = PIECE.lastIndex;
    const m = PIECE.exec(highlighted);
    if (!m || m.index !== at) return undefined;
    if (m[1] !== undefined) scopes.push(m[1]);
    else if (m[0] === '</span>') {
      if (scopes.pop() === undefined) return undefined;
    } else {
      const text = m[2] !== undefined ? ENTITIES[m[2]]! : m[0];
      const scope = scopes.at(-1);
      const last = tokens.at(-1);
      if (last && last.scope === scope) last.text += text;
      else tokens.push(scope ? { text, scope } : { text });
    }
  }
  return scopes.length === 0 ? tokens : undefined;
}
