import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { renderUnicodeCompact } from 'uqr';
import { NtfyChannelSettings } from '../../../shared/settings/notifications';
import { withAdmin } from '../run-admin';

/** A topic nobody guesses: ntfy topics are readable by whoever knows the name. */
export const randomTopic = (prefix: string): string =>
  `${prefix}-${randomBytes(15)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')}`;

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
        const config = NtfyChannelSettings.parse({
          enabled: true,
          server: o.server.replace(/\/+$/, ''),
          topic: randomTopic('gatehouse'),
          token: o.token ?? '',
          replyTopic: o.replyTopic ? randomTopic('gatehouse-reply') : '',
        });
        // The topic last: the channel is complete before it is switched on.
        for (const key of ['server', 'token', 'replyTopic', 'topic', 'enabled'] as const)
          await c.call('settings.set', {
            key: `notifications.channels.ntfy.${key}`,
            value: config[key],
          });
        const url = `${config.server}/${config.topic}`;
        console.log('ntfy is set up. On your phone, open the ntfy app and subscribe to:');
        console.log(`\n  ${url}\n`);
        console.log(renderUnicodeCompact(url, { border: 2 }));
        console.log(
          config.replyTopic
            ? `\nApprove / Deny come back through the reply topic ${config.replyTopic} (no inbound port needed).`
            : '\nApprove / Deny POST to the signed decision link: set dashboard.remote so your phone can reach it.',
        );
        console.log(
          'Anyone who knows the topic can read the notifications: keep the URL to yourself.',
        );
        if (!o.test) return;
        // One JSON publish, as the daemon's channel sends them (ntfy's publish API).
        const res = await fetch(`${config.server.replace(/\/+$/, '')}/`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(config.token ? { Authorization: `Bearer ${config.token}` } : {}),
          },
          body: JSON.stringify({
            topic: config.topic,
            title: 'Gatehouse is connected',
            message: 'Requests that ask for you will arrive here with Approve and Deny buttons.',
            priority: 3,
            tags: ['white_check_mark', 'gatehouse'],
          }),
          redirect: 'error',
          signal: AbortSignal.timeout(15_000),
        });
        if (!res.ok) throw new Error(`ntfy answered HTTP ${res.status} to the test notification`);
        console.log('A test notification was sent.');
      }),
    );
}
