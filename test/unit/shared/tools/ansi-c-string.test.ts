import { describe, expect, it } from 'vitest';
import { ansiCText } from '../../../../shared/tools/ansi-c-string';

describe("ansiCText: what bash makes of a $'…' string", () => {
  it('reads the escapes bash reads, as bash does', () => {
    expect(ansiCText('BEGIN{\\x73ystem("id")}')).toBe('BEGIN{system("id")}');
    expect(ansiCText('a\\tb\\n\\e[0m\\\\\\\'\\"\\?')).toBe('a\tb\n\x1b[0m\\\'"?');
    expect(ansiCText('.e\\156v')).toBe('.env');
    expect(ansiCText('\\1010')).toBe('A0'); // three octal digits at most
    expect(ansiCText('\\x2eenv\\x4')).toBe('.env\x04');
    expect(ansiCText('\\u0073\\U00000073')).toBe('ss');
    expect(ansiCText('\\u00e9')).toBe('é');
    expect(ansiCText('\\ca\\cZ\\c?')).toBe('\x01\x1a\x7f');
  });

  it('keeps what is not an escape, and ends at a NUL as the argument does', () => {
    expect(ansiCText('plain')).toBe('plain');
    expect(ansiCText('\\z\\x\\q')).toBe('\\z\\x\\q');
    expect(ansiCText('trail\\')).toBe('trail\\');
    expect(ansiCText('ab\\0cd')).toBe('ab');
    expect(ansiCText('ab\\x00cd')).toBe('ab');
  });
});
