/**
 * Bash's pathname patterns (`*.ts`, `.e[!x]v`, `[[:alpha:]]*`, `!*`) as regular expressions,
 * matched as bash matches them (extglob off: `!` and `@` are plain characters, `[!…]` and
 * `[^…]` negate). A general glob library reads them otherwise (`!` at the start negates the
 * whole pattern, `[!x]` is a set of `!` and `x`), and a path check that misses a name bash
 * would match lets the call through.
 *
 * One difference on purpose: a leading `.` matches a wildcard, as with `dotglob`, so a check
 * sees every name bash could match and more, never fewer.
 */

/** The characters that make a word a pattern. */
export const GLOB_CHARS = /[*?[]/;

/**
 * `pattern` (segments split by `/`, which no wildcard or set matches) as a regular expression
 * matching the whole of a path or name.
 */
export function globRegExp(pattern: string, o: { caseInsensitive?: boolean } = {}): RegExp {
  const flags = o.caseInsensitive ? 'isu' : 'su';
  try {
    return new RegExp(`^${sourceFrom(pattern, 0)}$`, flags);
  } catch {
    // A set JavaScript refuses (a range running backwards, `[z-a]`): whatever it would
    // match, matching every name of its segments keeps the check on the safe side.
    return new RegExp(`^${pattern.split('/').map(everyName).join('/')}$`, flags);
  }
}

function sourceFrom(pattern: string, start: number): string {
  let source = '';
  for (let i = start; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const readings = setReadings(pattern, i);
      if (!readings.length) source += '\\[';
      else if (readings.length === 1) {
        source += readings[0]!.source;
        i = readings[0]!.end;
      } else
        return `${source}(?:${readings.map((r) => r.source + sourceFrom(pattern, r.end + 1)).join('|')})`;
    } else source += escapeOutside(c);
  }
  return source;
}

interface SetReading {
  source: string;
  end: number;
}

/**
 * The ways to read the set opening at `open`. The words checked have lost their quotes, and
 * `[\!x]` (a set of `!` and `x`) then reads as `[!x]` (anything but `x`): a set opening with
 * `!` or `^` matches under both readings. Two readings that end at different places (`[!]…`)
 * are kept apart.
 */
function setReadings(pattern: string, open: number): SetReading[] {
  const plain = bracket(pattern, open + 1, false);
  if (pattern[open + 1] !== '!' && pattern[open + 1] !== '^') return plain ? [plain] : [];
  const negated = bracket(pattern, open + 2, true);
  if (!negated || !plain) return [negated ?? plain].filter((r): r is SetReading => !!r);
  if (negated.end === plain.end)
    return [{ source: `(?:${negated.source}|${plain.source})`, end: plain.end }];
  return [negated, plain];
}

const everyName = (segment: string): string =>
  GLOB_CHARS.test(segment) ? '[^/]*' : [...segment].map(escapeOutside).join('');

const escapeOutside = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const escapeInside = (c: string): string => c.replace(/[\\\]^[-]/g, '\\$&');

/** POSIX character classes, in Unicode terms (bash matches them in the locale's terms). */
const CLASSES: Readonly<Record<string, string>> = {
  alpha: '\\p{L}',
  digit: '0-9',
  alnum: '\\p{L}\\p{N}',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  space: '\\s',
  blank: ' \\t',
  punct: '\\p{P}\\p{S}',
  xdigit: '0-9A-Fa-f',
  cntrl: '\\p{Cc}',
  graph: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
  print: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S} ',
  word: '\\p{L}\\p{N}_',
};

/**
 * The set whose members start at `from`: `[abc]`, `[!a-z]` (negated), `[]x]` (a `]` first is
 * a member), `[[:alpha:]]`; undefined when it never closes (the `[` is then a plain character).
 */
function bracket(pattern: string, from: number, negated: boolean): SetReading | undefined {
  let members = '';
  for (let i = from; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '/') return undefined;
    if (c === ']' && i > from) return { source: `[${negated ? '^/' : ''}${members}]`, end: i };
    const named = /^\[([:=.])(\w+|.)\1\]/su.exec(pattern.slice(i));
    if (named) {
      const [text, kind, name] = named as unknown as [string, string, string];
      // An unknown class matches nothing in bash; any name is on the safe side.
      members += kind === ':' ? (CLASSES[name] ?? '\\s\\S') : escapeInside(name);
      i += text.length - 1;
      continue;
    }
    const range = pattern[i + 1] === '-' && pattern[i + 2] !== undefined && pattern[i + 2] !== ']';
    if (range) {
      members += `${escapeInside(c)}-${escapeInside(pattern[i + 2]!)}`;
      i += 2;
    } else members += escapeInside(c);
  }
  return undefined;
}
