/**
 * A small, conservative shell tokenizer: enough of POSIX sh to split a Bash tool command
 * into simple commands (at `&&`, `||`, `;`, `|`, `&`, newlines and parentheses), each with
 * its words and redirections. Command substitutions (`$(…)`, backticks, `<(…)`) are
 * returned separately so their commands are judged too. It never executes or expands
 * anything; what it cannot understand ends up as words, which the caller treats as an
 * unknown command (which asks).
 */

/** One simple command: `words[0]` is the program, after leading `VAR=value` assignments. */
export interface SimpleCommand {
  words: string[];
  /** Files written by `>`, `>>`, `&>`, `>|` (not /dev/null or `>&2`). */
  writes: string[];
}

export interface ParsedShell {
  commands: SimpleCommand[];
  /** Inner texts of `$(…)`, backticks and process substitutions, to be parsed in turn. */
  substitutions: string[];
}

const SEPARATORS = new Set([';', '&', '|', '\n', '(', ')']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** Splits a command line into simple commands; see the module comment. */
export function parseShell(source: string): ParsedShell {
  return new Tokenizer(source).run();
}

class Tokenizer {
  private i = 0;
  private word = '';
  /** True once the current word has any content, even an empty quoted string. */
  private inWord = false;
  private words: string[] = [];
  private writes: string[] = [];
  private pendingRedirect: 'write' | 'read' | 'heredoc' | undefined;
  private heredocs: { delimiter: string; stripTabs: boolean }[] = [];
  private heredocStripTabs = false;
  private readonly commands: SimpleCommand[] = [];
  private readonly substitutions: string[] = [];

  constructor(private readonly s: string) {}

  run(): ParsedShell {
    while (this.i < this.s.length) this.step();
    this.endCommand();
    return { commands: this.commands, substitutions: this.substitutions };
  }

  private step(): void {
    const c = this.s[this.i]!;
    const next = this.s[this.i + 1];
    if (c === '\\') {
      if (next === '\n') this.i += 2;
      else {
        this.append(next ?? '');
        this.i += 2;
      }
      return;
    }
    if (c === "'") return this.singleQuoted();
    if (c === '"') return this.doubleQuoted();
    if (c === '`') return this.backtick();
    if (c === '$' && next === '(') return this.dollarParen();
    if ((c === '<' || c === '>') && next === '(') return this.dollarParen();
    if (c === '#' && !this.inWord) return this.comment();
    if (c === ' ' || c === '\t') {
      this.endWord();
      this.i++;
      return;
    }
    if (c === '>' || c === '<' || (c === '&' && next === '>')) return this.redirect();
    if (SEPARATORS.has(c)) {
      this.endCommand();
      this.i += c === '&' && next === '&' ? 2 : c === '|' && (next === '|' || next === '&') ? 2 : 1;
      if (c === '\n') this.skipHeredocBodies();
      return;
    }
    this.append(c);
    this.i++;
  }

  private append(text: string): void {
    this.word += text;
    this.inWord = true;
  }

  private singleQuoted(): void {
    const end = this.s.indexOf("'", this.i + 1);
    const stop = end === -1 ? this.s.length : end;
    this.append(this.s.slice(this.i + 1, stop));
    this.i = stop + 1;
  }

  private doubleQuoted(): void {
    this.inWord = true;
    this.i++;
    while (this.i < this.s.length && this.s[this.i] !== '"') {
      const c = this.s[this.i]!;
      if (c === '\\' && this.i + 1 < this.s.length) {
        this.append(this.s[this.i + 1]!);
        this.i += 2;
      } else if (c === '$' && this.s[this.i + 1] === '(') this.dollarParen();
      else if (c === '`') this.backtick();
      else {
        this.append(c);
        this.i++;
      }
    }
    this.i++;
  }

  private backtick(): void {
    const end = this.s.indexOf('`', this.i + 1);
    const stop = end === -1 ? this.s.length : end;
    const inner = this.s.slice(this.i + 1, stop);
    this.substitutions.push(inner);
    this.append(`\`${inner}\``);
    this.i = stop + 1;
  }

  /** `$(…)`, `<(…)`, `>(…)`: balanced parentheses, quotes skipped naively. */
  private dollarParen(): void {
    const start = this.i + 2;
    let depth = 1;
    let j = start;
    let quote: string | undefined;
    for (; j < this.s.length && depth > 0; j++) {
      const c = this.s[j];
      if (quote) {
        if (c === quote) quote = undefined;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    const inner = this.s.slice(start, depth === 0 ? j - 1 : j);
    this.substitutions.push(inner);
    this.append(`$(${inner})`);
    this.i = j;
  }

  private comment(): void {
    const nl = this.s.indexOf('\n', this.i);
    this.i = nl === -1 ? this.s.length : nl;
  }

  private redirect(): void {
    // A word made only of digits right before `>` is a file descriptor, not an argument.
    if (/^\d+$/.test(this.word)) {
      this.word = '';
      this.inWord = false;
    } else this.endWord();
    const rest = this.s.slice(this.i);
    const op = /^(<<<|<<-|<<|&>>|&>|>>|>\||>&|<&|<>|>|<)/.exec(rest)![0];
    this.i += op.length;
    if (op === '>&' || op === '<&') {
      // `2>&1` or `>&2`: a descriptor duplication, unless a file name follows (`>& file`).
      const fd = /^\s*(\d+|-)/.exec(this.s.slice(this.i));
      if (fd) {
        this.i += fd[0].length;
        return;
      }
      this.pendingRedirect = 'write';
      return;
    }
    if (op === '<<' || op === '<<-') {
      this.pendingRedirect = 'heredoc';
      this.heredocStripTabs = op === '<<-';
      return;
    }
    this.pendingRedirect = op.includes('>') ? 'write' : 'read';
  }

  private endWord(): void {
    if (!this.inWord) return;
    const w = this.word;
    this.word = '';
    this.inWord = false;
    const redirect = this.pendingRedirect;
    this.pendingRedirect = undefined;
    if (redirect === 'write') {
      if (!HARMLESS_TARGETS.has(w)) this.writes.push(w);
    } else if (redirect === 'heredoc') {
      this.heredocs.push({ delimiter: w, stripTabs: this.heredocStripTabs });
    } else if (redirect !== 'read') this.words.push(w);
  }

  private endCommand(): void {
    this.endWord();
    this.pendingRedirect = undefined;
    let k = 0;
    while (k < this.words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(this.words[k]!)) k++;
    const words = this.words.slice(k);
    if (words.length || this.writes.length) this.commands.push({ words, writes: this.writes });
    this.words = [];
    this.writes = [];
  }

  /** After a newline, the bodies of pending here-documents are data, not commands. */
  private skipHeredocBodies(): void {
    for (const { delimiter, stripTabs } of this.heredocs) {
      while (this.i < this.s.length) {
        const nl = this.s.indexOf('\n', this.i);
        const end = nl === -1 ? this.s.length : nl;
        let line = this.s.slice(this.i, end);
        if (stripTabs) line = line.replace(/^\t+/, '');
        this.i = end + 1;
        if (line === delimiter) break;
      }
    }
    this.heredocs = [];
  }
}
