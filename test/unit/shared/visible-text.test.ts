import { describe, expect, it } from 'vitest';
import {
  describeHidden,
  hiddenCharactersIn,
  holdsHiddenCharacters,
  visibleText,
  visibleTextParts,
  type VisibleTextPart,
} from '../../../shared/visible-text';

/** Every code point from `from` to `to`, inclusive, as strings. */
const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

/** Each listed range of hidden characters, by what it is. */
const HIDDEN_RANGES: Record<string, string[]> = {
  'C0 but tab and newline': [...range(0x00, 0x08), ...range(0x0b, 0x1f)],
  'DEL and C1': range(0x7f, 0x9f),
  'bidirectional embeddings and overrides': range(0x202a, 0x202e),
  'bidirectional isolates': range(0x2066, 0x2069),
  'left-to-right, right-to-left and Arabic letter marks': ['\u200e', '\u200f', '\u061c'],
  'zero-width space, non-joiner, joiner': range(0x200b, 0x200d),
  'byte-order mark': ['\ufeff'],
  'line and paragraph separators': ['\u2028', '\u2029'],
  'word joiner, invisible operators, deprecated format controls': [
    ...range(0x2060, 0x2065),
    ...range(0x206a, 0x206f),
  ],
  'other invisible letters and fillers': [
    '\xad',
    '\u034f',
    '\u115f',
    '\u1160',
    '\u17b4',
    '\u17b5',
    '\u180e',
    '\u3164',
    '\uffa0',
    ...range(0xfff9, 0xfffb),
  ],
  'tag characters': range(0xe0000, 0xe007f),
};

const joined = (parts: VisibleTextPart[]): string =>
  parts.map((p) => ('text' in p ? p.text : p.hidden.char)).join('');

describe('visibleTextParts', () => {
  for (const [what, chars] of Object.entries(HIDDEN_RANGES))
    it(`marks every character of: ${what}`, () => {
      for (const ch of chars) {
        const text = `a${ch}b`;
        const parts = visibleTextParts(text);
        expect(parts, `U+${ch.codePointAt(0)!.toString(16)}`).toEqual([
          { text: 'a' },
          { hidden: describeHidden(ch) },
          { text: 'b' },
        ]);
        expect(holdsHiddenCharacters(text)).toBe(true);
      }
    });

  it('splits the reversed push into its text and a marker, and joins back exactly', () => {
    const text = 'git status\u202e ecrof-- hsup tig';
    const parts = visibleTextParts(text);
    expect(parts).toEqual([
      { text: 'git status' },
      { hidden: { char: '\u202e', code: 'U+202E', name: 'right-to-left override' } },
      { text: ' ecrof-- hsup tig' },
    ]);
    expect(joined(parts)).toBe(text);
  });

  it('keeps newlines, tabs and ordinary text whole: other scripts, emoji, typography', () => {
    const text = 'push to origin → main ✓\n\tשלום مرحبا 日本語 🚀 é …[masked] ‘quoted’ — 100 %';
    expect(visibleTextParts(text)).toEqual([{ text }]);
    expect(holdsHiddenCharacters(text)).toBe(false);
    expect(visibleText(text)).toBe(text);
  });

  it('marks hidden characters back to back and at either end', () => {
    const text = '\u2066\u2069rm -rf ~\u200b\ufeff';
    const parts = visibleTextParts(text);
    expect(parts.map((p) => ('text' in p ? p.text : p.hidden.code))).toEqual([
      'U+2066',
      'U+2069',
      'rm -rf ~',
      'U+200B',
      'U+FEFF',
    ]);
    expect(joined(parts)).toBe(text);
  });

  it('gives the same answer on every call (no matcher state carried between calls)', () => {
    for (let i = 0; i < 3; i++) expect(holdsHiddenCharacters('x\u202ey')).toBe(true);
  });
});

describe('visibleText', () => {
  it('writes each hidden character as ⟨U+XXXX⟩, a tag character as its whole code point', () => {
    expect(visibleText('git status\u202e ecrof-- hsup tig')).toBe(
      'git status⟨U+202E⟩ ecrof-- hsup tig',
    );
    expect(visibleText('a\x1b[2K\rb\u{e0041}')).toBe('a⟨U+001B⟩[2K⟨U+000D⟩b⟨U+E0041⟩');
  });
});

describe('hiddenCharactersIn', () => {
  it('names each hidden character once, in the order it first appears', () => {
    expect(hiddenCharactersIn('a\u2067b\u200bc\u2067\u{e0020}').map((h) => h.name)).toEqual([
      'right-to-left isolate',
      'zero-width space',
      'tag character (invisible)',
    ]);
  });
});
