import type { Command } from 'commander';
import { Option } from 'commander';
import { LinkChannel } from '../../../shared/remote';
import { resolveHome } from '../../../shared/node/socket-path';
import { dashboardSecretPath, rotateDashboardSecret } from '../../../shared/node/dashboard-secret';
import { ConnectionError } from '../../sdk/rpc-client';
import { AdminClient } from '../admin-client';
import { printJson, reportError, withAdmin } from '../run-admin';

/** `gatehouse link ID` and `gatehouse dashboard`: the ways to a decision from a browser. */
export function registerLinkCommands(program: Command): void {
  program
    .command('link')
    .description(
      "Print the request's decision link: a phone page to approve or deny it, signed, single use, expiring (dashboard.linkExpiryMs)",
    )
    .argument('<id>', 'request id')
    .addOption(
      new Option('--channel <channel>', 'where you will send it (recorded with the decision)')
        .choices(LinkChannel.options)
        .default('cli'),
    )
    .option('--json', 'print JSON')
    .action((requestId: string, o: { channel: LinkChannel; json?: boolean }) =>
      withAdmin(async (c) => {
        const link = await c.call('request.link', { requestId, channel: o.channel });
        if (o.json) return printJson(link);
        console.log(link.url);
        console.error(`(works once, until ${link.expiresAt})`);
      }),
    );

  program
    .command('dashboard')
    .description(
      'Print the dashboard URL; opening it once signs that browser in (it stays signed in)',
    )
    .option('--rotate-secret', 'new dashboard secret: every signed-in browser is signed out')
    .action(async (o: { rotateSecret?: boolean }) => {
      try {
        if (o.rotateSecret) {
          // The CLI owns the file as the daemon does; the daemon reads it again on change.
          rotateDashboardSecret(dashboardSecretPath(resolveHome()));
          console.error('Dashboard secret rotated: every browser is signed out.');
        }
        const client = await AdminClient.connect().catch((error: unknown) => {
          if (error instanceof ConnectionError && o.rotateSecret) return undefined;
          throw error;
        });
        if (!client) {
          console.error('Gatehouse is not running; the new secret applies when it starts.');
          return;
        }
        try {
          const s = await client.call('status', {});
          if (s.dashboardUrl) console.log(s.dashboardUrl);
          else
            console.error('Gatehouse runs without a dashboard (--no-dashboard, or desktop mode).');
        } finally {
          client.close();
        }
      } catch (error) {
        process.exitCode = reportError(error);
      }
    });
}
