import type { Command } from 'commander';
import { renderUnicodeCompact } from 'uqr';
import { withAdmin } from '../run-admin';

/** `gatehouse ntfy setup`: push to the phone with Approve / Deny buttons, in one step. */
export function registerNtfyCommands(program: Command): void {
  const ntfy = program.command('ntfy').description('Push notifications to your phone with ntfy');
  ntfy
    .command('setup')
    .description(
      'Make a random topic (and a reply topic for the Approve / Deny buttons), save the settings, print the subscribe URL as text and QR code, and send a test notification',
    )
    .option('--server <url>', 'ntfy server', 'https://ntfy.sh')
    .option('--token <token>', 'access token, for a protected topic on your own server')
    .option(
      '--no-reply-topic',
      'no reply topic: the buttons POST to the signed decision link (needs dashboard.remote)',
    )
    .option('--no-test', 'do not send the test notification')
    .action((o: { server: string; token?: string; replyTopic: boolean; test: boolean }) =>
      withAdmin(async (c) => {
        // The daemon makes the topics and saves them in one step (`ntfy.setup`).
        const setup = await c.call('ntfy.setup', {
          server: o.server,
          token: o.token ?? '',
          replyTopic: o.replyTopic,
        });
        const url = setup.subscribeUrl;
        console.log('ntfy is set up. On your phone, open the ntfy app and subscribe to:');
        console.log(`\n  ${url}\n`);
        console.log(renderUnicodeCompact(url, { border: 2 }));
        console.log(
          setup.replyTopic
            ? `\nApprove / Deny come back through the reply topic ${setup.replyTopic} (no inbound port needed).`
            : '\nApprove / Deny POST to the signed decision link: set dashboard.remote so your phone can reach it.',
        );
        console.log(
          'Anyone who knows the topic can read the notifications: keep the URL to yourself.',
        );
        if (!o.test) return;
        // Sent by the daemon through its ntfy channel, as a request's notification would be.
        const test = await c.call('notifications.test', { channel: 'ntfy' });
        if (!test.ok)
          throw new Error(`the test notification was not delivered: ${test.error ?? 'unknown'}`);
        console.log('A test notification was sent.');
      }),
    );
}
