/** C0 controls but newline and tab: JSON escapes these itself, so only plain text holds them. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const C0_CONTROLS = /[\x00-\x08\x0b-\x1f]/g;

/**
 * DEL, the C1 controls and the bidirectional overrides and isolates (they reorder what a
 * terminal shows, "Trojan Source"). JSON.stringify leaves these raw.
 */
const RAW_IN_JSON = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text the command line prints, safe to show in a terminal. Much of it is written by agents
 * (a command, a description, a target, a rule drawn from them), and a terminal acts on what
 * it is sent: an escape sequence can erase or rewrite the line before it, a carriage return
 * prints `git status` over `git push --force`, a bidirectional override shows the end of a
 * command before its start. C0 controls are shown as their Unicode pictures (as the push's
 * diff is); newlines and tabs are kept. DEL, C1 and bidirectional controls are written as the
 * text `\uXXXX`: plain text shows them, and inside JSON output (where they stand raw in a
 * string) that text is the same character's JSON escape, so `--json` still parses to exactly
 * what the agent sent.
 */
export function terminalText(text: string): string {
  return text
    .replace(C0_CONTROLS, (ch) => String.fromCharCode(0x2400 + ch.charCodeAt(0)))
    .replace(RAW_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
