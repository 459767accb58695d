import { replaceHidden } from '../../shared/visible-text';

/** A UTF-16 unit as JSON writes it escaped: `\u202e`. */
const jsonEscape = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;

/**
 * Text the command line prints, safe to show in a terminal. Much of it is written by agents
 * (a command, a description, a target, a rule drawn from them), and a terminal acts on what
 * it is sent: an escape sequence can erase or rewrite the line before it, a carriage return
 * prints `git status` over `git push --force`, a bidirectional override shows the end of a
 * command before its start. The characters are the ones every view marks
 * (shared/visible-text.ts), so the terminal and the dashboard cannot disagree about them.
 * C0 controls are shown as their Unicode pictures (as the push's diff is); newlines and tabs
 * are kept. The others (DEL, C1, bidirectional and invisible characters) are written as the
 * text `\uXXXX`: plain text shows them, and inside JSON output (where they stand raw in a
 * string: JSON escapes only C0 itself) that text is the same character's JSON escape, so
 * `--json` still parses to exactly what the agent sent.
 */
export function terminalText(text: string): string {
  return replaceHidden(text, ({ char }) => {
    const first = char.charCodeAt(0);
    if (first < 0x20) return String.fromCharCode(0x2400 + first);
    // A tag character is two UTF-16 units, and JSON escapes each.
    return Array.from({ length: char.length }, (_, i) => jsonEscape(char.charCodeAt(i))).join('');
  });
}

/**
 * Makes every string written to `stream` terminal text, so no command's output can forget it.
 * The CLI writes no escape sequence of its own (no colours, no cursor moves), and JSON output
 * holds no raw control character, so nothing of Gatehouse's own is lost. Buffers pass as they
 * are: the CLI writes none.
 */
export function guardTerminalOutput(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const guarded = (chunk: unknown, ...rest: unknown[]): boolean =>
    write(typeof chunk === 'string' ? terminalText(chunk) : chunk, ...rest);
  // The stream's write has overloads the wrapper keeps by passing its arguments on unchanged.
  stream.write = guarded as NodeJS.WriteStream['write'];
}
