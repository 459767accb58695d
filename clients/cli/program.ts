import { Command, CommanderError } from 'commander';
import { VERSION } from '../../shared/version';
import { registerAgentCommands } from './commands/agents';
import { registerControlCommands } from './commands/control';
import { registerExportCommand } from './commands/export';
import { registerGuardCommands } from './commands/guards';
import { registerHubCommands } from './commands/hub';
import { addHubOption } from './commands/hub-target';
import { registerLinkCommands } from './commands/links';
import { registerNtfyCommands } from './commands/ntfy';
import { registerChatCommands } from './commands/chat';
import { registerPruneCommand } from './commands/prune';
import { registerAuditCommands } from './commands/audit';
import { registerRequestCommands } from './commands/requests';
import { registerReviewCommand } from './commands/review';
import { registerSessionCommands } from './commands/sessions';
import { registerSuggestionCommands } from './commands/suggestions';
import { registerTrustCommands } from './commands/trust';
import { resolveSocketPath } from '../../shared/node/socket-path';
import { endQuietlyWhenStdoutCloses } from './closed-pipe';
import { Exit, reportError } from './run-admin';
import { guardTerminalOutput } from './terminal-text';

/**
 * Builds the command line and runs it on `process.argv`. `addCommands` adds the commands
 * the entry point brings (see gatehouse.ts); they are listed first in the help.
 */
export async function runProgram(addCommands?: (program: Command) => void): Promise<void> {
  endQuietlyWhenStdoutCloses();
  guardTerminalOutput(process.stdout);
  guardTerminalOutput(process.stderr);
  const program = new Command();
  program
    .name('gatehouse')
    .version(VERSION, '-V, --version', 'print the Gatehouse version')
    .description('Gatehouse: the human gate for AI agents that run unattended.')
    .addHelpText(
      'after',
      `
Environment:
  GATEHOUSE_HOME     data directory (database, transcripts, admin token)
  GATEHOUSE_SOCKET   agent socket path

Exit codes: 0 ok, 1 error, 2 Gatehouse not running, 3 unknown id, 4 invalid input.`,
    )
    // Commander throws instead of exiting, so that a usage error exits 4 (see below); every
    // command registered after this inherits it.
    .exitOverride();

  addHubOption(program);
  addCommands?.(program);

  program
    .command('socket-path')
    .description('Print the resolved agent socket path')
    .action(() => console.log(resolveSocketPath()));

  registerControlCommands(program);
  registerRequestCommands(program);
  registerReviewCommand(program);
  registerSessionCommands(program);
  registerExportCommand(program);
  registerGuardCommands(program);
  registerAgentCommands(program);
  registerTrustCommands(program);
  registerSuggestionCommands(program);
  registerLinkCommands(program);
  registerNtfyCommands(program);
  registerChatCommands(program);
  registerPruneCommand(program);
  registerAuditCommands(program);
  registerHubCommands(program);

  // A usage error says what was wrong in one line and where the full help is, not the help.
  for (const command of withSubcommands(program))
    command.showHelpAfterError(`(see \`${commandPath(command)} --help\`)`);

  await program.parseAsync(process.argv).catch((error: unknown) => {
    // Commander has printed its message; help and --version end here with their own code.
    if (error instanceof CommanderError)
      process.exitCode = USAGE_ERRORS.has(error.code) ? Exit.invalid : error.exitCode;
    else process.exitCode = reportError(error);
  });
}

/** Commander's codes for input it refused: unknown option, bad value, missing argument… */
const USAGE_ERRORS = new Set([
  'commander.unknownOption',
  'commander.unknownCommand',
  'commander.invalidArgument',
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.excessArguments',
  'commander.conflictingOption',
]);

function* withSubcommands(command: Command): Generator<Command> {
  yield command;
  for (const sub of command.commands) yield* withSubcommands(sub);
}

/** "gatehouse rules add", as the person would type it. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
