import { describe, expect, it } from 'vitest';
import { terminalText } from '../../../../clients/cli/terminal-text';

describe('terminalText', () => {
  it('shows C0 controls as their pictures and keeps newlines and tabs', () => {
    expect(terminalText('a\x1b[2K\rb\n\tc\x07')).toBe('a␛[2K␍b\n\tc␇');
  });

  it('writes DEL, C1 and bidirectional controls as \\u text that JSON reads back', () => {
    const text = 'x\u202ey\u2066z\x9b1m\x7f';
    const shown = terminalText(JSON.stringify({ text }));
    expect(shown).toBe('{"text":"x\\u202ey\\u2066z\\u009b1m\\u007f"}');
    expect((JSON.parse(shown) as { text: string }).text).toBe(text);
  });

  it('writes zero-width, mark, separator and tag characters as JSON escapes too', () => {
    const text = 'a\u200bb\u200fc\u061cd\ufeffe\u2028f\u{e0041}g';
    const shown = terminalText(JSON.stringify({ text }));
    expect(shown).toBe('{"text":"a\\u200bb\\u200fc\\u061cd\\ufeffe\\u2028f\\udb40\\udc41g"}');
    expect((JSON.parse(shown) as { text: string }).text).toBe(text);
  });

  it('leaves ordinary text alone, non-Latin scripts and emoji included', () => {
    const text = 'push to origin → main ✓ 日本語 🚀 …[masked]';
    expect(terminalText(text)).toBe(text);
  });
});
