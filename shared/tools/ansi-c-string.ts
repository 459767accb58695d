/** Single-letter escapes of bash's `$'…'` strings (bash's `ansicstr`). */
const LETTERS: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * The text bash makes of the inside of a `$'…'` string: `\n`, `\t`, `\e`…, `\nnn` (octal),
 * `\xHH`, `\uHHHH`, `\UHHHHHHHH`, `\cX` (control-X); an unknown escape stays as written. The
 * text ends at a NUL, as the argument bash passes does. The program gets this, not the escapes:
 * `awk $'BEGIN{\x73ystem("id")}'` runs `system`.
 */
export function ansiCText(inner: string): string {
  if (!inner.includes('\\')) return inner;
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c !== '\\' || i + 1 >= inner.length) {
      out += c;
      continue;
    }
    const e = inner[++i]!;
    const letter = LETTERS[e];
    if (letter !== undefined) {
      out += letter;
      continue;
    }
    const digits = (re: RegExp, max: number, from: number): string => {
      let d = '';
      while (d.length < max && from + d.length < inner.length && re.test(inner[from + d.length]!))
        d += inner[from + d.length];
      return d;
    };
    let code: number | undefined;
    if (/[0-7]/.test(e)) {
      const d = digits(/[0-7]/, 3, i);
      code = parseInt(d, 8) & 0xff;
      i += d.length - 1;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const d = digits(/[0-9A-Fa-f]/, e === 'x' ? 2 : e === 'u' ? 4 : 8, i + 1);
      if (!d) {
        out += `\\${e}`;
        continue;
      }
      code = parseInt(d, 16);
      i += d.length;
    } else if (e === 'c' && i + 1 < inner.length) {
      const x = inner[++i]!;
      code = x === '?' ? 0x7f : x.toUpperCase().charCodeAt(0) & 0x1f;
    } else {
      out += `\\${e}`;
      continue;
    }
    // bash passes a C string: a NUL ends it.
    if (code === 0) return out;
    out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
  }
  return out;
}
