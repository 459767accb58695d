#!/usr/bin/env node
import type { Command } from 'commander';
import { runGatehouse } from '../clients/cli/gatehouse';

/**
 * The `gatehouse` binary: the clients' command line plus `gatehouse daemon`. It is the one
 * file that joins the two sides, so it stands outside both: clients/ imports nothing from
 * main/ and main/ nothing from clients/. The daemon is loaded only when its command runs, so
 * the other commands (and the Claude Code hook) stay light.
 */
function addDaemonCommand(program: Command): void {
  program
    .command('daemon')
    .description(
      'Run Gatehouse headless in the foreground (socket, engine, dashboard, notifications)',
    )
    .option('--no-dashboard', 'do not serve the web dashboard')
    .action(async (o: { dashboard: boolean }) => {
      const { runDaemonForeground } = await import('../main/daemon');
      process.exitCode = await runDaemonForeground({ dashboard: o.dashboard });
    });
}

await runGatehouse(addDaemonCommand);
