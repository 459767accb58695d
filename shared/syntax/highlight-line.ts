import { hljs, languageOf } from './languages';
import { tokensOf, type Token } from './tokens';

/** Lines longer than this are shown plain: highlighting a minified line costs more than it shows. */
const MAX_LINE = 2_000;

/**
 * One line of code as tokens, highlighted as the language of `path` (a diff line's own text,
 * without its `+`/`-`/` ` mark). Each line is highlighted alone: a diff shows fragments, and a
 * line never depends on what an agent wrote lines before it. Plain when the language is not
 * known, the line is too long, or highlight.js fails.
 */
export function highlightLine(text: string, path: string | undefined): Token[] {
  const language = path === undefined ? undefined : languageOf(path);
  if (!language || text.length > MAX_LINE || text === '') return [{ text }];
  try {
    const { value } = hljs.highlight(text, { language, ignoreIllegals: true });
    const tokens = tokensOf(value);
    // Read back, the tokens must be the line itself, character for character.
    if (tokens && tokens.map((t) => t.text).join('') === text) return tokens;
  } catch {
    // Shown plain below.
  }
  return [{ text }];
}
