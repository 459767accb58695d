import type { Command } from 'commander';
import { PersonNotifyPrefs } from '../../../shared/protocol/hub-person-notify';
import { resolveHome } from '../../../shared/node/socket-path';
import { positiveNumber } from '../options';
import { UsageError } from '../run-admin';
import { callHub, hubUrl } from './hub-http-client';
import { personTokenFor } from './hub-login';

interface NotifyMeOptions {
  ntfyTopic?: string;
  email?: string;
  webhook?: string;
  webhookSecret?: string;
  desktop?: boolean;
  newRequests: boolean;
  remindAfter?: number;
}

/**
 * `gatehouse hub notify-me URL`: where the hub tells you (your own ntfy topic, mail address or
 * webhook, among the hub's channels) and after how many minutes it reminds you of a request
 * still waiting, and (`--desktop`) on the desktop of the machines you own. With no option it shows what is set; with any, it replaces it. Uses your
 * personal token (`gatehouse hub login URL`, or GATEHOUSE_HUB_TOKEN).
 */
export function addNotifyMeCommand(hub: Command, run: (fn: () => Promise<void>) => Promise<void>) {
  hub
    .command('notify-me')
    .description(
      'Show or set where the hub notifies you (your ntfy topic, email or webhook) and when it reminds you',
    )
    .argument('<url>', 'the hub, e.g. https://hub.example.com')
    .option('--ntfy-topic <topic>', "your own topic on the hub's ntfy server")
    .option('--email <address>', "your own address, through the hub's mail server")
    .option('--webhook <url>', 'your own webhook')
    .option('--webhook-secret <key>', 'the key your webhook receiver checks signatures with')
    .option(
      '--desktop',
      'also on the desktop of the machines you own (hub invite --owner), for requests on others',
    )
    .option('--no-new-requests', 'no message when a request starts waiting (reminders only)')
    .option(
      '--remind-after <minutes>',
      'remind me once of each request still waiting after this many minutes',
      positiveNumber('a number of minutes', '15'),
    )
    .action((u: string, o: NotifyMeOptions, cmd: Command) =>
      run(async () => {
        const url = hubUrl(u);
        const credential = personTokenFor(resolveHome(), url);
        const given = cmd.options.some(
          (opt) => cmd.getOptionValueSource(opt.attributeName()) === 'cli',
        );
        if (!given) {
          console.log(
            JSON.stringify(await callHub(url, 'GET', '/api/me/notify', credential), null, 2),
          );
          return;
        }
        const channels = [o.ntfyTopic, o.email, o.webhook].filter((c) => c !== undefined);
        if (channels.length > 1)
          throw new UsageError('choose one of --ntfy-topic, --email, --webhook');
        const channel =
          o.ntfyTopic !== undefined
            ? { kind: 'ntfy', topic: o.ntfyTopic }
            : o.email !== undefined
              ? { kind: 'email', to: o.email }
              : o.webhook !== undefined
                ? { kind: 'webhook', url: o.webhook, secret: o.webhookSecret ?? '' }
                : undefined;
        const prefs = PersonNotifyPrefs.safeParse({
          ...(channel ? { channel } : {}),
          ...(o.desktop ? { desktop: true } : {}),
          newRequests: o.newRequests,
          ...(o.remindAfter !== undefined ? { remindAfterMinutes: o.remindAfter } : {}),
        });
        if (!prefs.success)
          throw new UsageError(prefs.error.issues[0]?.message ?? 'invalid notification settings');
        const r = await callHub(url, 'POST', '/api/me/notify', { ...credential, body: prefs.data });
        console.log(JSON.stringify(r, null, 2));
      }),
    );
}
