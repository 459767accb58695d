#!/usr/bin/env node
import type { Command } from 'commander';
import { runGatehouse } from './gatehouse';
import { loadMainEntryPoints } from './load-main';

/**
 * The `gatehouse` binary's entry: the clients' command line plus the commands that run main/
 * itself (`gatehouse daemon`, `gatehouse hub`). clients/ imports nothing from main/, so those
 * load main/'s own bundle when their command runs (./load-main.ts), which also keeps the
 * other commands (and the Claude Code hook) light.
 */
function addDaemonCommand(program: Command): void {
  program
    .command('daemon')
    .description(
      'Run Gatehouse headless in the foreground (socket, engine, dashboard, notifications)',
    )
    .option('--no-dashboard', 'do not serve the web dashboard')
    .action(async (o: { dashboard: boolean }) => {
      const main = await loadMainEntryPoints();
      process.exitCode = await main.daemon({ dashboard: o.dashboard });
    });
}

/**
 * `gatehouse hub`: the team server (main/hub/), loaded only when it runs. Its other
 * sub-commands (invite, join, status …) are clients of it, registered by clients/cli.
 */
function addHubCommand(program: Command): void {
  program
    .command('hub')
    .description('Run the team hub (HTTP + WebSocket) or manage it: see its sub-commands')
    .option('--port <n>', 'the port to listen on (0: any free one)', '7230')
    .option('--bind <addr>', 'the address to listen on', '127.0.0.1')
    .option(
      '--database-url <url>',
      'a PostgreSQL server (postgres://…; or GATEHOUSE_HUB_DATABASE_URL); default: embedded in $GATEHOUSE_HOME/hub/data',
    )
    .option('--tls-cert <file>', 'serve HTTPS and WSS with this certificate (PEM; with --tls-key)')
    .option('--tls-key <file>', "the certificate's private key (PEM)")
    .option(
      '--public-url <url>',
      'the address people reach the hub at, for the links in its notifications',
    )
    .option(
      '--sso-config <file>',
      'single sign-on settings to apply at start (JSON: the fields of `gatehouse hub sso set`, the secret as clientSecretFile)',
    )
    .action(
      async (o: {
        port: string;
        bind: string;
        databaseUrl?: string;
        tlsCert?: string;
        tlsKey?: string;
        publicUrl?: string;
        ssoConfig?: string;
      }) => {
        const main = await loadMainEntryPoints();
        process.exitCode = await main.hub(o);
      },
    );
}

await runGatehouse((program) => {
  addDaemonCommand(program);
  addHubCommand(program);
});
