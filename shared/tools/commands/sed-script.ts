/**
 * Reads a sed script far enough to tell whether it only prints: GNU sed's `e` runs commands,
 * `w`/`W` write files, `r`/`R` read files the path checks never see, and the `s` command's
 * `e` and `w` flags do the same. Returns the reason the script is not proven harmless.
 *
 * The reader follows GNU sed 4.9's own (sed/compile.c: compile_program, match_slash,
 * snarf_char_class, read_label, read_text, mark_subst_opts) step by step, as a command is only
 * harmless when it is read where sed reads it: a label ends at a blank and the next command
 * follows (`:a e id`), a bracket expression holds the delimiter (`s/[/]x/id/e`), an `a`
 * text goes on past an escaped newline. `-e` pieces are read joined by newlines, which is how
 * sed continues an `a\` text or a `{` block from one piece to the next. A script sed would
 * refuse is not proven harmless either: it asks.
 */
export function sedScriptProblem(script: string): string | undefined {
  try {
    return readProgram(new ScriptText(script));
  } catch (error) {
    if (error instanceof Unreadable) return 'the sed script does not parse';
    throw error;
  }
}

/** sed would stop with an error here, or reads on in a way Gatehouse does not follow. */
class Unreadable extends Error {}

/** The script and a place in it; `''` stands for sed's EOF. */
class ScriptText {
  at = 0;
  constructor(readonly text: string) {}
  /** sed's inchar: the next character, `''` at the end (which it does not pass). */
  next(): string {
    return this.at < this.text.length ? this.text[this.at++]! : '';
  }
  /** sed's savchar: puts back the character just read (nothing at the end). */
  back(ch: string): void {
    if (ch !== '') this.at--;
  }
  /** sed's in_nonblank: the next character that is not a space or tab. */
  nonblank(): string {
    let ch = this.next();
    while (isBlank(ch)) ch = this.next();
    return ch;
  }
}

const isBlank = (ch: string): boolean => ch === ' ' || ch === '\t';
const isSpace = (ch: string): boolean => ch !== '' && ' \t\n\v\f\r'.includes(ch);
const isDigit = (ch: string): boolean => ch >= '0' && ch <= '9';

/** Commands that only print, move text between the spaces or end the run. */
const PLAIN_COMMANDS = new Set('=dDFgGhHnNpPzx');

function readProgram(s: ScriptText): string | undefined {
  for (;;) {
    let ch = s.next();
    while (ch === ';' || isSpace(ch)) ch = s.next();
    if (ch === '') return undefined;
    const addressed = readAddress(s, ch);
    if (addressed) {
      ch = s.nonblank();
      if (ch === ',') {
        if (!readAddress(s, s.nonblank())) throw new Unreadable();
        ch = s.nonblank();
      }
    }
    if (ch === '!') {
      ch = s.nonblank();
      if (ch === '!') throw new Unreadable();
    }
    const problem = readCommand(s, ch, addressed);
    if (problem) return problem;
  }
}

/** sed's compile_address: reads one address starting at `ch`; false when `ch` starts none. */
function readAddress(s: ScriptText, ch: string): boolean {
  if (ch === '/' || ch === '\\') {
    readDelimited(s, ch === '\\' ? s.next() : ch, true);
    let flag = s.nonblank();
    while (flag === 'I' || flag === 'M') flag = s.nonblank();
    s.back(flag);
    return true;
  }
  if (isDigit(ch)) {
    readInteger(s, ch);
    const step = s.nonblank();
    if (step === '~') readInteger(s, s.nonblank());
    else s.back(step);
    return true;
  }
  if (ch === '+' || ch === '~') {
    readInteger(s, s.nonblank());
    return true;
  }
  return ch === '$';
}

/** sed's in_integer: the digits from `ch` on; the first other character is put back. */
function readInteger(s: ScriptText, ch: string): void {
  while (isDigit(ch)) ch = s.next();
  s.back(ch);
}

/** One command from its letter `ch` to its end; the problem when it is not harmless. */
function readCommand(s: ScriptText, ch: string, addressed: boolean): string | undefined {
  if (PLAIN_COMMANDS.has(ch)) return readEndOfCommand(s);
  switch (ch) {
    case '#':
      if (addressed) throw new Unreadable();
      while (ch !== '' && ch !== '\n') ch = s.next();
      return undefined;
    case '{':
      return undefined;
    case '}':
      return readEndOfCommand(s);
    case ':':
      if (addressed || readLabel(s) === '') throw new Unreadable();
      return undefined;
    case 'b':
    case 't':
    case 'T':
    case 'v':
      readLabel(s);
      return undefined;
    case 'a':
    case 'i':
    case 'c':
      readText(s);
      return undefined;
    case 'l':
    case 'q':
    case 'Q':
      readInteger(s, s.nonblank());
      return readEndOfCommand(s);
    case 's':
      return readSubstitution(s);
    case 'y':
      return readTransliteration(s);
    case 'e':
      return 'sed e runs a command';
    case 'w':
    case 'W':
      return 'sed w writes a file';
    case 'r':
    case 'R':
      return 'sed r reads a file the path checks do not see';
    default:
      return `sed ${ch || 'script'} is not a command known to be harmless`;
  }
}

/** sed's read_end_of_cmd: only blanks, then `;`, a newline, the end, `}` or `#` may follow. */
function readEndOfCommand(s: ScriptText): undefined {
  const ch = s.nonblank();
  if (ch === '}' || ch === '#') s.back(ch);
  else if (ch !== '' && ch !== '\n' && ch !== ';') throw new Unreadable();
  return undefined;
}

/** sed's read_label: leading blanks, then up to a blank, `;`, `}`, `#` or a newline. */
function readLabel(s: ScriptText): string {
  let label = '';
  let ch = s.nonblank();
  for (; ch !== '' && ch !== '\n' && !isBlank(ch) && !';}#'.includes(ch); ch = s.next())
    label += ch;
  s.back(ch);
  return label;
}

/**
 * The text of `a`, `i` and `c`: after `a\` from the next character, else (GNU's one-liner
 * `a text`) from the first non-blank; either way to the first newline no backslash escapes.
 */
function readText(s: ScriptText): void {
  const ch = s.nonblank();
  if (ch === '') throw new Unreadable();
  if (ch !== '\\') s.back(ch);
  else if (s.next() === '') return;
  for (let c = s.next(); c !== '' && c !== '\n'; c = s.next()) if (c === '\\') s.next();
}

/** `s/regex/replacement/flags`: the flags are where it runs (`e`) or writes (`w`). */
function readSubstitution(s: ScriptText): string | undefined {
  const delimiter = s.next();
  readDelimited(s, delimiter, true);
  readDelimited(s, delimiter, false);
  for (;;) {
    const ch = s.nonblank();
    if ('iImMpg'.includes(ch) && ch !== '') continue;
    if (isDigit(ch)) readInteger(s, ch);
    else if (ch === 'e') return 'sed s///e runs the result as a command';
    else if (ch === 'w') return 'sed s///w writes a file';
    else if (ch === '}' || ch === '#') {
      s.back(ch);
      return undefined;
    } else if (ch === '' || ch === '\n' || ch === ';') return undefined;
    else if (ch === '\r' && s.next() === '\n') return undefined;
    else throw new Unreadable();
  }
}

/** `y/abc/xyz/`: two parts with the same delimiter, neither a regex. */
function readTransliteration(s: ScriptText): undefined {
  const delimiter = s.next();
  readDelimited(s, delimiter, false);
  readDelimited(s, delimiter, false);
  return readEndOfCommand(s);
}

/**
 * sed's match_slash: reads up to the closing `delimiter`, the one before it already read. A
 * backslash escapes the next character and, in a regex, a bracket expression holds its
 * characters, the delimiter too (`s/[/]/x/`).
 */
function readDelimited(s: ScriptText, delimiter: string, regex: boolean): void {
  if (!isOneByteDelimiter(delimiter)) throw new Unreadable();
  for (let ch = s.next(); ch !== '' && ch !== '\n'; ch = s.next()) {
    if (ch === delimiter) return;
    if (ch === '\\') {
      if (s.next() === '') break;
    } else if (ch === '[' && regex) {
      if (readBracket(s) !== ']') break;
    } else if (mayHideNext(s, ch, delimiter)) break;
  }
  throw new Unreadable();
}

/** sed takes a one-byte delimiter (a newline ends the part before it can close it). */
const isOneByteDelimiter = (ch: string): boolean => ch !== '' && ch !== '\n' && ch < '\x80';

/**
 * A non-ASCII character followed by `\`, `[`, `]` or the delimiter: in a legacy double-byte
 * locale (GBK, GB18030, Big5, Shift-JIS; `LC_ALL` is a variable sed may run with) sed can take
 * that ASCII byte (0x30-0x39, 0x40-0x7E) for the second byte of a character, so for no syntax.
 */
function mayHideNext(s: ScriptText, ch: string, delimiter: string): boolean {
  if (ch < '\x80') return false;
  const next = s.text[s.at] ?? '';
  const trailByte = (next >= '0' && next <= '9') || (next >= '@' && next <= '~');
  return trailByte && (next === delimiter || '\\[]'.includes(next));
}

/**
 * sed's snarf_char_class, from just after `[`: a leading `^` and `]` are members; `[:alpha:]`,
 * `[.x.]` and `[=x=]` are read whole; the first other `]` closes. Returns the character it
 * stopped at: `]`, or a newline or `''` when the bracket is not closed on its line.
 */
function readBracket(s: ScriptText): string {
  let ch = s.next();
  if (ch === '^') ch = s.next();
  if (ch === ']') ch = s.next();
  // 0 outside a class, 1 just after `[`, 2 inside `[:`…, 3 after its closing `:`.
  let state = 0;
  let opener = '';
  for (; ; ch = s.next()) {
    if (ch === '' || ch === '\n') return ch;
    if (ch === '.' || ch === ':' || ch === '=') {
      if (state === 1) {
        opener = ch;
        state = 2;
        continue;
      }
      if (state === 2 && ch === opener) {
        state = 3;
        continue;
      }
    } else if (ch === '[') {
      if (state === 0) state = 1;
      continue;
    } else if (ch === ']') {
      if (state === 0 || state === 1) return ch;
      if (state === 3) state = 0;
    } else if (mayHideNext(s, ch, '')) return '';
    state &= ~1;
  }
}
