#!/usr/bin/env node
/**
 * The `gatehouse` entry. The Claude Code hook runs before every tool call, so it skips the
 * full command-line program (commander and every command module) and loads only itself.
 */
const [command, sub, ...rest] = process.argv.slice(2);
if (command === 'hook' && sub === 'claude-code' && rest.length === 0) {
  const { runClaudeCodeHook } = await import('../hooks/claude-code/run-hook');
  await runClaudeCodeHook();
} else {
  await import('./program');
}

export {};
