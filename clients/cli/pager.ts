import { spawnSync } from 'node:child_process';
import { terminalText } from './terminal-text';

/**
 * Shows text through the person's pager (`$PAGER`, else `less -R`) when the output is a
 * terminal, as git does; printed as it is otherwise (a pipe, a test, a script). A pager that
 * cannot start falls back to printing, so the text is never lost.
 */
export function page(text: string): void {
  if (!process.stdout.isTTY) return void console.log(text);
  const pager = process.env.PAGER?.trim() || 'less -R';
  const run = spawnSync('/bin/sh', ['-c', pager], {
    // The pager writes to the terminal itself, past the guard on process.stdout.
    input: `${terminalText(text)}\n`,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  if (run.error || run.status === 127) console.log(text);
}
