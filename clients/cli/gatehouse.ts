import type { Command } from 'commander';

/**
 * Runs the `gatehouse` command line. `gatehouse` itself is the small CommonJS launcher
 * scripts/build.mjs writes to dist/cli/gatehouse.js: it sends an agent hook (`gatehouse hook
 * <agent>`, no options) straight to the relay's own bundle (clients/hooks/hook-main.ts →
 * dist/hook/gatehouse-hook.cjs) and everything else to main.ts, which calls this.
 * `addCommands` lets that entry point add the commands that run main/ (`daemon`, `hub`).
 */
export async function runGatehouse(addCommands?: (program: Command) => void): Promise<void> {
  const { runProgram } = await import('./program');
  await runProgram(addCommands);
}
