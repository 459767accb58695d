/**
 * Agent text made visible. An agent writes much of what a person reads before deciding (a
 * command, a description, a target, a path, a reason, a tool's input, a session's title), and
 * a browser, an OS notification or a terminal acts on some characters instead of showing
 * them: a bidirectional override shows the end of `git status\u202e ecrof-- hsup tig`
 * reversed, so the screen reads `git push --force` where the call says otherwise (or the
 * reverse); a zero-width space, a byte-order mark or a tag character hides text; an escape
 * sequence rewrites a terminal's line. Every place that shows agent text finds these
 * characters here, and shows each as a marker a person can read, so no view can disagree with
 * another about which characters are hidden. Pure: no DOM, no Node.
 */

/**
 * The characters shown as markers, newline and tab aside (they are whitespace a person sees):
 * - C0 controls (NUL–US) and DEL, and the C1 controls (U+0080–U+009F): a terminal acts on
 *   them, a browser shows nothing or a box;
 * - U+00AD soft hyphen, U+034F combining grapheme joiner, U+061C Arabic letter mark, U+115F
 *   and U+1160 Hangul fillers, U+17B4 and U+17B5 Khmer inherent vowels, U+180E Mongolian vowel
 *   separator: invisible in most fonts;
 * - U+200B–U+200F: zero-width space, non-joiner and joiner, left-to-right and right-to-left
 *   marks;
 * - U+2028 and U+2029 line and paragraph separators, U+202A–U+202E bidirectional embeddings
 *   and overrides;
 * - U+2060–U+206F: word joiner, invisible operators, bidirectional isolates (U+2066–U+2069),
 *   deprecated format controls;
 * - U+3164 and U+FFA0 Hangul fillers, U+FEFF byte-order mark, U+FFF9–U+FFFB interlinear
 *   annotation controls;
 * - U+E0000–U+E007F tag characters: invisible letters a model reads ("ASCII smuggling").
 * Variation selectors are not listed: emoji need them, and they hide no letter. U+200D is, so an
 * emoji joined from several (a family) shows as its parts with a chip between them: plainer,
 * never hiding anything.
 */
const HIDDEN_SOURCE = String.raw`[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u034f]|\udb40[\udc00-\udc7f]`;

/** A fresh global matcher (a shared one would carry `lastIndex` from one caller to the next). */
const hiddenPattern = (): RegExp =>
  // eslint-disable-next-line no-misleading-character-class -- each joiner and combining mark is matched on its own, which is the point
  new RegExp(HIDDEN_SOURCE, 'g');

/** Short names a person may know, for the characters an attack uses most. */
const NAMES: Readonly<Record<number, string>> = {
  0x00: 'null',
  0x07: 'bell',
  0x08: 'backspace',
  0x0b: 'vertical tab',
  0x0c: 'form feed',
  0x0d: 'carriage return',
  0x1b: 'escape',
  0x7f: 'delete',
  0x9b: 'control sequence introducer',
  0xad: 'soft hyphen',
  0x061c: 'Arabic letter mark',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero-width no-break space (byte-order mark)',
};

/** One hidden character, as a marker shows it. */
export interface HiddenCharacter {
  /** The character itself (two UTF-16 units for a tag character). */
  char: string;
  /** `U+202E`: what the marker reads. */
  code: string;
  /** `right-to-left override`, or `invisible or control character` when it has no short name. */
  name: string;
}

/** A run of agent text: shown as it is, or one hidden character shown as a marker. */
export type VisibleTextPart = { text: string } | { hidden: HiddenCharacter };

/** The character's code point as a person reads it: `U+202E`, `U+E0041`. */
export const codePointLabel = (char: string): string =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** What a marker says about `char`, which the caller found with `visibleTextParts`. */
export function describeHidden(char: string): HiddenCharacter {
  const point = char.codePointAt(0)!;
  const name =
    NAMES[point] ??
    (point >= 0xe0000 ? 'tag character (invisible)' : 'invisible or control character');
  return { char, code: codePointLabel(char), name };
}

/** Whether `text` holds a character a view shows as a marker. */
export const holdsHiddenCharacters = (text: string): boolean => hiddenPattern().test(text);

/** The hidden characters `text` holds, each once, in the order they first appear. */
export function hiddenCharactersIn(text: string): HiddenCharacter[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(hiddenPattern())) seen.add(m[0]);
  return [...seen].map(describeHidden);
}

/**
 * `text` split into what shows as it is and the hidden characters between, in order. A view
 * renders the text parts as text and each hidden part as a marker (the renderer's
 * `AgentText`, the phone page's chips). Joining the parts' text and characters gives `text`
 * back exactly.
 */
export function visibleTextParts(text: string): VisibleTextPart[] {
  const parts: VisibleTextPart[] = [];
  let from = 0;
  for (const m of text.matchAll(hiddenPattern())) {
    if (m.index > from) parts.push({ text: text.slice(from, m.index) });
    parts.push({ hidden: describeHidden(m[0]) });
    from = m.index + m[0].length;
  }
  if (from < text.length) parts.push({ text: text.slice(from) });
  return parts;
}

/**
 * `text` with each hidden character replaced by what `mark` makes of it. Where the text goes
 * decides the form: a terminal's `\u202e`, a notification's `⟨U+202E⟩`.
 */
export const replaceHidden = (text: string, mark: (hidden: HiddenCharacter) => string): string =>
  text.replace(hiddenPattern(), (ch) => mark(describeHidden(ch)));

/**
 * Agent text as plain text that hides nothing: each hidden character becomes `⟨U+202E⟩`. For
 * what can only hold a string: an OS notification, a page title, a tooltip, a chat message.
 */
export const visibleText = (text: string): string => replaceHidden(text, (h) => `⟨${h.code}⟩`);
