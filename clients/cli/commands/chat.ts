import type { Command } from 'commander';
import { z } from 'zod';
import { withAdmin } from '../run-admin';
import { setupSlack } from './chat-slack';

const DEFAULT_API = 'https://api.telegram.org';

const Envelope = z.object({
  ok: z.boolean(),
  result: z.unknown(),
  description: z.string().optional(),
});
const Me = z.object({ id: z.number(), username: z.string().optional() });
const Updates = z.array(
  z.object({
    update_id: z.number().int(),
    message: z
      .object({
        text: z.string().optional(),
        chat: z.object({ id: z.number().int() }),
        from: z.object({ id: z.number().int(), username: z.string().optional() }).optional(),
      })
      .optional(),
  }),
);

/** One Bot API call; the token is in the URL, so errors name only the method. */
async function botCall(api: string, token: string, method: string, body: object): Promise<unknown> {
  const res = await fetch(`${api.replace(/\/+$/, '')}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    redirect: 'error',
    signal: AbortSignal.timeout(70_000),
  });
  const env = Envelope.safeParse(await res.json().catch(() => undefined));
  if (!env.success || !env.data.ok)
    throw new Error(
      `telegram ${method} failed: HTTP ${res.status} ${env.success ? (env.data.description ?? '') : ''}`.trim(),
    );
  return env.data.result;
}

/** Waits for someone to send `/start` to the bot; their chat and user id. */
async function awaitStart(
  api: string,
  token: string,
  timeoutS: number,
): Promise<{ chatId: number; userId: number; username?: string }> {
  const deadline = Date.now() + timeoutS * 1000;
  let offset: number | undefined;
  while (Date.now() < deadline) {
    const wait = Math.max(1, Math.min(30, Math.ceil((deadline - Date.now()) / 1000)));
    const updates = Updates.parse(
      await botCall(api, token, 'getUpdates', {
        offset,
        timeout: wait,
        allowed_updates: ['message'],
      }),
    );
    for (const u of updates) {
      offset = u.update_id + 1;
      const m = u.message;
      if (m?.from && m.text?.trim().startsWith('/start'))
        return {
          chatId: m.chat.id,
          userId: m.from.id,
          ...(m.from.username ? { username: m.from.username } : {}),
        };
    }
  }
  throw new Error('nobody sent /start to the bot in time; run the set-up again');
}

/** `gatehouse chat setup telegram`: a bot that posts requests with buttons that decide. */
export function registerChatCommands(program: Command): void {
  const chat = program.command('chat').description('Approve from a chat app (Telegram, Slack)');
  chat
    .command('setup')
    .argument('<app>', 'telegram or slack')
    .description(
      'Check the credentials, save the settings and send a test message. Telegram: finds your chat when you send /start to the bot (you become the one allowed to decide). Slack: posts to --channel, --allow names who may decide',
    )
    .requiredOption('--token <token>', "the bot token (BotFather's, or Slack's xoxb-…)")
    .option('--app-token <token>', 'Slack: the app-level token (xapp-…, connections:write)')
    .option('--channel <id>', 'Slack: the id of the channel to post to (C…)')
    .option('--allow <ids>', 'Slack: the user ids who may decide, comma-separated (U…)')
    .option('--api <url>', "the API's base URL (a test server)")
    .option('--wait <seconds>', 'Telegram: how long to wait for /start', '300')
    .option('--no-test', 'do not send the test message')
    .action(
      (
        app: string,
        o: {
          token: string;
          appToken?: string;
          channel?: string;
          allow?: string;
          api?: string;
          wait: string;
          test: boolean;
        },
      ) =>
        withAdmin(async (c) => {
          if (app === 'slack') return setupSlack(c, o);
          if (app !== 'telegram')
            throw new Error(`unknown chat app ${app}: telegram and slack are supported`);
          const api = o.api ?? DEFAULT_API;
          const me = Me.parse(await botCall(api, o.token, 'getMe', {}));
          // The daemon's own poll would take the /start: it stops while set-up waits.
          await c.call('settings.set', {
            key: 'notifications.channels.telegram.enabled',
            value: false,
          });
          console.log(`Bot @${me.username ?? me.id} is ready. In Telegram, send /start to it now.`);
          const start = await awaitStart(api, o.token, Number(o.wait) || 300);
          const set = (key: string, value: unknown) =>
            c.call('settings.set', { key: `notifications.channels.telegram.${key}`, value });
          await set('apiBase', api);
          await set('botToken', o.token);
          await set('chatId', String(start.chatId));
          await set('allowedUserIds', [String(start.userId)]);
          await set('enabled', true);
          console.log(
            `Telegram is set up: requests go to chat ${start.chatId}; ${start.username ? `@${start.username}` : `user ${start.userId}`} may decide.`,
          );
          if (!o.test) return;
          const test = await c.call('notifications.test', { channel: 'telegram' });
          if (!test.ok)
            throw new Error(`the test message was not delivered: ${test.error ?? 'unknown'}`);
          console.log('A test message was sent.');
        }),
    );
}
