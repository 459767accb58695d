/**
 * The awk subset Gatehouse counts as a read: patterns and `print`/`printf` to standard
 * output. Anything that can run a command, write or read another file (`system`, `getline`,
 * `|`, `>` in a print, `close`, `fflush`, `@include`/`@load`, `ARGV`) is refused.
 *
 * The program is read token by token as awk reads it (GNU awk and mawk): string literals,
 * regex literals, `#` comments, escapes and `\`-newline continuations, so that a quote
 * inside a regex (`/"/`) or a comment cannot hide code from the checks, nor code hide
 * inside what looks like a string. Whether a `/` starts a regex or divides depends on the
 * token before it; where the awks read it differently (after `i++`, after `length` without
 * parentheses, after `if (…)`) or Gatehouse is not sure, the program is refused. Returns
 * the reason, if any.
 */
export function awkProgramProblem(program: string): string | undefined {
  const scanner = new AwkScanner(program);
  return scanner.problem();
}

/** What the next `/` would be: a regex's start, a division, or not known for sure. */
type SlashReading = 'regex' | 'division' | 'unsure';

/** Why an opening parenthesis was opened: after it closes, a statement or an operator may follow. */
type ParenKind = 'group' | 'control' | 'params';

const SYSTEM = 'awk system() runs a command';
const GETLINE = 'awk getline can run a command or read any file';
const PIPE = 'awk | runs a command';
const WRITE = 'awk > can write a file';
const CLOSE = 'awk close/fflush act on commands and files';
const LOAD = 'awk @include/@load load code';
const ARGV = 'awk ARGV changes which files it reads';
const OUTSIDE = 'awk PROCINFO/ENVIRON reach outside the program';
const SYMTAB = 'awk SYMTAB reaches any variable by name';
/** Which of several refusals a program is named by: the gravest first. */
const REFUSALS_IN_ORDER = [SYSTEM, GETLINE, PIPE, WRITE, CLOSE, LOAD, ARGV, OUTSIDE, SYMTAB];

/** Names that reach outside the program, and why each is refused. */
const REFUSED_NAMES: ReadonlyMap<string, string> = new Map([
  ['system', SYSTEM],
  ['getline', GETLINE],
  ['close', CLOSE],
  ['fflush', CLOSE],
  ['ARGV', ARGV],
  ['ARGC', ARGV],
  ['PROCINFO', OUTSIDE],
  ['ENVIRON', OUTSIDE],
  ['SYMTAB', SYMTAB],
]);

/** Keywords after which every awk reads an expression, so a `/` there starts a regex. */
const BEFORE_AN_OPERAND = new Set(['print', 'printf', 'return', 'exit', 'do', 'else']);

/** Keywords whose `(…)` is followed by a statement (gawk reads a regex there, mawk a division). */
const CONTROL_KEYWORDS = new Set(['if', 'while', 'for', 'switch']);

/**
 * Keywords and built-in functions of gawk or mawk (a plain name in some awk, a keyword in
 * another): a `/` right after one is read differently, or is an error, so it is not read.
 */
const OTHER_KEYWORDS = new Set([
  ...['BEGIN', 'END', 'BEGINFILE', 'ENDFILE', 'function', 'func', 'delete', 'in'],
  ...['next', 'nextfile', 'break', 'continue', 'case', 'default'],
  ...['length', 'substr', 'index', 'split', 'sub', 'gsub', 'match', 'sprintf', 'sin', 'cos'],
  ...['atan2', 'exp', 'log', 'sqrt', 'int', 'rand', 'srand', 'tolower', 'toupper'],
  ...['gensub', 'patsplit', 'strftime', 'systime', 'mktime', 'and', 'or', 'xor', 'compl'],
  ...['lshift', 'rshift', 'asort', 'asorti', 'isarray', 'typeof', 'strtonum', 'mkbool'],
  ...['bindtextdomain', 'dcgettext', 'dcngettext'],
]);

/** Two- and one-character operators after which an operand follows (`/` then starts a regex). */
const OPERATORS = [
  ...['**=', '&&', '||', '==', '!=', '<=', '!~', '+=', '-=', '*=', '/=', '%=', '^=', '**'],
  ...['+', '-', '*', '%', '^', '!', '<', '=', '~', '?', ':', ',', '$'],
];

const NOT_READ = 'awk programs can run commands (Gatehouse does not read this program)';
const BRACKET_NOT_READ =
  'awk programs can run commands (a regex [...] that holds a / or does not close)';
const UNSURE_SLASH =
  'awk programs can run commands (a / that awks read either as a regex or as a division)';

/**
 * Reads one awk program as awk's lexer does. It stops at what it cannot read; what it reads
 * and refuses (a name, `|`, `>`) is noted and reading goes on, to name the gravest.
 */
class AwkScanner {
  private at = 0;
  private slash: SlashReading = 'regex';
  /** Whether the last token ended an operand, so a newline there ends the statement. */
  private afterOperand = false;
  private readonly parens: ParenKind[] = [];
  /** How many parentheses were open where the current `print`/`printf` began. */
  private printDepth: number | undefined;
  private paramsNext = false;
  private controlNext = false;
  /** Whether the last token was `print`/`printf` itself: a newline after it ends the statement. */
  private barePrint = false;

  private readonly refusals = new Set<string>();

  constructor(private readonly text: string) {}

  problem(): string | undefined {
    // In a locale such as GBK, gawk reads a character's last byte together with a following
    // `\`, `[` or `]` (the bytes of UTF-8 `€` then `\` make two GBK characters), so a `\"`
    // that escapes here would close the string there.
    if (/[\u0080-\uffff][\\[\]]/.test(this.text)) return NOT_READ;
    while (this.at < this.text.length) {
      const problem = this.token();
      if (problem) return problem;
    }
    if (this.parens.length > 0) return NOT_READ;
    return REFUSALS_IN_ORDER.find((refusal) => this.refusals.has(refusal));
  }

  /** Notes a refusal, to name once the whole program is read. */
  private refuse(refusal: string): undefined {
    this.refusals.add(refusal);
    return undefined;
  }

  /** Reads the token at `at` and moves past it; returns why the program cannot be read, if so. */
  private token(): string | undefined {
    const c = this.text[this.at]!;
    if (c === ' ' || c === '\t') {
      this.at++;
      return undefined;
    }
    if (c === '\n') return this.newline();
    if (c === '#') return this.comment();
    if (c === '\\') return this.continuation();
    if (c === '"') return this.string();
    if (c === '/') return this.slashToken();
    if (/[A-Za-z_]/.test(c)) return this.word();
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(this.text[this.at + 1] ?? '')))
      return this.number();
    return this.punctuation();
  }

  private newline(): undefined {
    this.at++;
    if (this.afterOperand || this.barePrint) {
      // Ends the statement, unless inside parentheses (an error in awk; not read).
      if (this.parens.length > 0) this.slash = 'unsure';
      else {
        this.slash = 'regex';
        this.printDepth = undefined;
      }
    } else if (this.slash !== 'unsure') this.slash = 'regex';
    this.afterOperand = false;
    this.barePrint = false;
    return undefined;
  }

  /** `#` to the end of the line; a `\` at its end does not continue it, in gawk or mawk. */
  private comment(): undefined {
    const end = this.text.indexOf('\n', this.at);
    this.at = end < 0 ? this.text.length : end;
    return undefined;
  }

  /** `\` then a newline joins two lines between tokens; any other `\` outside a literal is not awk. */
  private continuation(): string | undefined {
    if (this.text[this.at + 1] !== '\n') return NOT_READ;
    this.at += 2;
    return undefined;
  }

  /** A string literal: `\` escapes the next character, a raw newline or the end leave it open. */
  private string(): string | undefined {
    for (let i = this.at + 1; i < this.text.length; i++) {
      const c = this.text[i];
      if (c === '\\') i++;
      else if (c === '\n') break;
      else if (c === '"') return this.operand(i + 1);
    }
    return 'awk programs can run commands (a string does not close)';
  }

  private slashToken(): string | undefined {
    if (this.slash === 'unsure') return UNSURE_SLASH;
    if (this.slash === 'regex') return this.regex();
    this.at += this.text[this.at + 1] === '=' ? 2 : 1;
    return this.beforeOperand();
  }

  /**
   * A regex literal, read as gawk and mawk read it: `\` escapes the next character and a `/`
   * inside a bracket expression (`[/]`) does not end it. awks differ on where such a bracket
   * ends (one awk ends the regex at that `/`), so a `/` inside one is refused rather than read.
   */
  private regex(): string | undefined {
    let i = this.at + 1;
    while (i < this.text.length) {
      const c = this.text[i]!;
      if (c === '\\') i += 2;
      else if (c === '\n') break;
      else if (c === '/') return this.operand(i + 1);
      else if (c === '[') {
        const end = bracketEnd(this.text, i);
        if (end === undefined) return BRACKET_NOT_READ;
        i = end;
      } else i++;
    }
    return 'awk programs can run commands (a regex does not close)';
  }

  private word(): string | undefined {
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.at))![0];
    this.at += name.length;
    const refused = REFUSED_NAMES.get(name);
    if (refused) this.refuse(refused);
    this.afterOperand = false;
    this.barePrint = name === 'print' || name === 'printf';
    if (this.barePrint) this.printDepth = this.parens.length;
    if (BEFORE_AN_OPERAND.has(name)) this.slash = 'regex';
    else if (CONTROL_KEYWORDS.has(name)) {
      this.slash = 'unsure';
      this.controlNext = true;
    } else if (name === 'function' || name === 'func') {
      this.slash = 'unsure';
      this.paramsNext = true;
    } else if (OTHER_KEYWORDS.has(name)) this.slash = 'unsure';
    else {
      this.slash = 'division';
      this.afterOperand = true;
    }
    return undefined;
  }

  /** A number as awk reads one: digits, a fraction, an exponent, or gawk's hexadecimal. */
  private number(): undefined {
    const rest = this.text.slice(this.at);
    const match =
      /^0[xX][0-9A-Fa-f]+/.exec(rest) ??
      /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(rest);
    return this.operand(this.at + match![0].length);
  }

  private punctuation(): string | undefined {
    const rest = this.text.slice(this.at, this.at + 3);
    if (rest.startsWith('|')) {
      if (!rest.startsWith('||')) this.refuse(PIPE);
      return this.operator(rest.startsWith('||') || rest.startsWith('|&') ? 2 : 1);
    }
    if (rest.startsWith('>')) return this.greaterThan(rest);
    if (rest.startsWith('@')) {
      this.refuse(LOAD);
      return this.operator(1);
    }
    if (rest.startsWith('++') || rest.startsWith('--')) return this.increment();
    const c = rest[0]!;
    if (c === '(') return this.openParen();
    if (c === ')') return this.closeParen();
    if (c === '[') return this.operator(1);
    if (c === ']') return this.operand(this.at + 1);
    if (c === '{' || c === '}' || c === ';') {
      this.printDepth = undefined;
      return this.operator(1);
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (op) return this.operator(op.length);
    return NOT_READ;
  }

  /** `>`, `>>` and `>=` write a file in an unparenthesised print; elsewhere `>` and `>=` compare. */
  private greaterThan(rest: string): string | undefined {
    const inPrint = this.printDepth !== undefined && this.parens.length <= this.printDepth;
    if (rest.startsWith('>>') || inPrint) this.refuse(WRITE);
    return this.operator(rest.startsWith('>>') || rest.startsWith('>=') ? 2 : 1);
  }

  /**
   * `++`/`--` before an operand keeps awaiting it; after one (`i++`) gawk reads a following
   * `/` as a division and mawk as a regex, so that `/` is not read.
   */
  private increment(): undefined {
    this.at += 2;
    this.barePrint = false;
    if (this.afterOperand) this.slash = 'unsure';
    return undefined;
  }

  private openParen(): undefined {
    const kind: ParenKind = this.controlNext ? 'control' : this.paramsNext ? 'params' : 'group';
    this.parens.push(kind);
    return this.operator(1);
  }

  /** After `if (…)` a statement follows (a regex in gawk, a division in mawk): not read. */
  private closeParen(): string | undefined {
    const kind = this.parens.pop();
    if (kind === undefined) return NOT_READ;
    this.operand(this.at + 1);
    if (kind !== 'group') {
      // A statement or a function's body follows, not an operator: a newline does not end it.
      this.slash = 'unsure';
      this.afterOperand = false;
    }
    return undefined;
  }

  /** An operator or opening token: what follows is an operand, so a `/` starts a regex. */
  private operator(length: number): undefined {
    this.at += length;
    return this.beforeOperand();
  }

  private beforeOperand(): undefined {
    this.slash = 'regex';
    this.afterOperand = false;
    this.barePrint = false;
    this.controlNext = false;
    this.paramsNext = false;
    return undefined;
  }

  /** A token that ends an operand (a literal, `)`, `]`): a `/` after it divides. */
  private operand(end: number): undefined {
    this.at = end;
    this.slash = 'division';
    this.afterOperand = true;
    this.barePrint = false;
    this.controlNext = false;
    this.paramsNext = false;
    return undefined;
  }
}

/**
 * Where a regex's bracket expression opened at `open` ends (just past its `]`), or undefined
 * when a `/` or a newline comes first. A `]` first in it (`[]…]`, `[^]…]`) is literal, `\`
 * escapes (as gawk and mawk lex it), and `[:…:]`, `[.….]`, `[=…=]` end only at their own
 * close: read this way the bracket never ends before it does in gawk or mawk.
 */
function bracketEnd(text: string, open: number): number | undefined {
  let i = open + 1;
  if (text[i] === '^') i++;
  if (text[i] === ']') i++;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' || c === '\n') return undefined;
    if (c === '\\') i += 2;
    else if (c === ']') return i + 1;
    else if (c === '[' && /[:.=]/.test(text[i + 1] ?? '')) {
      const close = text.indexOf(`${text[i + 1]}]`, i + 2);
      if (close < 0 || /[/\n]/.test(text.slice(i, close))) return undefined;
      i = close + 2;
    } else i++;
  }
  return undefined;
}
