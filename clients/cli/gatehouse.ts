import type { Command } from 'commander';

/**
 * Runs the `gatehouse` command line. The Claude Code hook runs before every tool call, so it
 * skips the full command-line program (commander and every command module) and loads only
 * itself. `addCommands` lets the entry point add what clients/ may not hold itself: the
 * `daemon` command, which runs the daemon (main/gatehouse-cli.ts).
 */
export async function runGatehouse(addCommands?: (program: Command) => void): Promise<void> {
  const [command, sub, ...rest] = process.argv.slice(2);
  if (command === 'hook' && sub === 'claude-code' && rest.length === 0) {
    const { runClaudeCodeHook } = await import('../hooks/claude-code/run-hook');
    await runClaudeCodeHook();
  } else {
    const { runProgram } = await import('./program');
    await runProgram(addCommands);
  }
}
