import { Command } from 'commander';
import { registerAgentCommands } from './commands/agents';
import { registerControlCommands } from './commands/control';
import { registerGuardCommands } from './commands/guards';
import { registerRequestCommands } from './commands/requests';
import { registerReviewCommand } from './commands/review';
import { registerSessionCommands } from './commands/sessions';
import { registerTrustCommands } from './commands/trust';
import { resolveSocketPath } from '../sdk/socket-path';
import { reportError } from './run-admin';

const program = new Command();
program
  .name('gatehouse')
  .description('Gatehouse: the human gate for AI agents that run unattended.')
  .addHelpText(
    'after',
    `
Environment:
  GATEHOUSE_HOME     data directory (database, transcripts, admin token)
  GATEHOUSE_SOCKET   agent socket path

Exit codes: 0 ok, 1 error, 2 Gatehouse not running, 3 unknown id, 4 invalid input.`,
  )
  .showHelpAfterError();

program
  .command('daemon')
  .description(
    'Run Gatehouse headless in the foreground (socket, engine, dashboard, notifications)',
  )
  .option('--no-dashboard', 'do not serve the web dashboard')
  .action(async (o: { dashboard: boolean }) => {
    const { runDaemonForeground } = await import('../../main/daemon');
    process.exitCode = await runDaemonForeground({ dashboard: o.dashboard });
  });

program
  .command('socket-path')
  .description('Print the resolved agent socket path')
  .action(() => console.log(resolveSocketPath()));

registerControlCommands(program);
registerRequestCommands(program);
registerReviewCommand(program);
registerSessionCommands(program);
registerGuardCommands(program);
registerAgentCommands(program);
registerTrustCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.exitCode = reportError(error);
});
