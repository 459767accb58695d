import type { Command } from 'commander';
import { z } from 'zod';
import { withAdmin } from '../run-admin';
import { setupSlack } from './chat-slack';
import { DISCORD_API, setupDiscord } from './chat-discord-setup';

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

/**
 * Waits for someone to send `/start` to the bot; their chat and user id. It never confirms an
 * update (no `offset`): a press made meanwhile stays for the daemon's poll, which resumes
 * after. Updates already read are skipped; with only those waiting, it polls once a second.
 */
async function awaitStart(
  api: string,
  token: string,
  timeoutS: number,
): Promise<{ chatId: number; userId: number; username?: string }> {
  const deadline = Date.now() + timeoutS * 1000;
  const seen = new Set<number>();
  while (Date.now() < deadline) {
    const wait = Math.max(1, Math.min(30, Math.ceil((deadline - Date.now()) / 1000)));
    const updates = Updates.parse(
      await botCall(api, token, 'getUpdates', { timeout: wait, allowed_updates: ['message'] }),
    );
    let fresh = false;
    for (const u of updates) {
      if (seen.has(u.update_id)) continue;
      seen.add(u.update_id);
      fresh = true;
      const m = u.message;
      if (m?.from && m.text?.trim().startsWith('/start'))
        return {
          chatId: m.chat.id,
          userId: m.from.id,
          ...(m.from.username ? { username: m.from.username } : {}),
        };
    }
    if (!fresh && updates.length > 0) await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error('nobody sent /start to the bot in time; run the set-up again');
}

/** `gatehouse chat setup telegram`: a bot that posts requests with buttons that decide. */
export function registerChatCommands(program: Command): void {
  const chat = program
    .command('chat')
    .description('Approve from a chat app (Telegram, Slack, Discord)');
  chat
    .command('setup')
    .argument('<app>', 'telegram, slack or discord')
    .description(
      'Check the credentials, save the settings and send a test message. Telegram: finds your chat when you send /start to the bot (you become the one allowed to decide). Slack and Discord: post to --channel, --allow names who may decide',
    )
    .requiredOption(
      '--token <token>',
      "the bot token (BotFather's, Slack's xoxb-…, or the Discord Developer Portal's)",
    )
    .option('--app-token <token>', 'Slack: the app-level token (xapp-…, connections:write)')
    .option('--channel <id>', 'Slack and Discord: the id of the channel to post to')
    .option(
      '--allow <ids...>',
      'Slack and Discord: the user ids who may decide (space- or comma-separated)',
    )
    .option('--api <url>', "the app's API base URL (a test server)")
    .option('--wait <seconds>', 'Telegram: how long to wait for /start', '300')
    .option('--no-test', 'do not send the test message')
    .action(
      (
        app: string,
        o: {
          token: string;
          appToken?: string;
          channel?: string;
          allow?: string[];
          api?: string;
          wait: string;
          test: boolean;
        },
      ) =>
        withAdmin(async (c) => {
          // `--allow a b` and `--allow a,b` both name two people.
          const allow = (o.allow ?? [])
            .flatMap((ids) => ids.split(','))
            .map((id) => id.trim())
            .filter(Boolean);
          if (app === 'slack') return setupSlack(c, { ...o, allow });
          if (app === 'discord') return setupDiscord(c, { ...o, allow, api: o.api ?? DISCORD_API });
          if (app !== 'telegram')
            throw new Error(`unknown chat app ${app}: telegram, slack and discord are supported`);
          const api = o.api ?? DEFAULT_API;
          const me = Me.parse(await botCall(api, o.token, 'getMe', {}));
          // Two polls of one bot conflict: the daemon's stops (and has stopped when this
          // returns) while set-up waits, and starts again after, whatever happens here.
          const waitS = Number(o.wait) || 300;
          await c.call('chat.pause', {
            app: 'telegram',
            ms: Math.min(900_000, (waitS + 60) * 1000),
          });
          const set = (key: string, value: unknown) =>
            c.call('settings.set', { key: `notifications.channels.telegram.${key}`, value });
          // The settings are saved before the poll resumes: a press made meanwhile is then
          // judged by the new allow-list.
          const start = await (async () => {
            try {
              console.log(
                `Bot @${me.username ?? me.id} is ready. In Telegram, send /start to it now.`,
              );
              const found = await awaitStart(api, o.token, waitS);
              await set('apiBase', api);
              await set('botToken', o.token);
              await set('chatId', String(found.chatId));
              await set('allowedUserIds', [String(found.userId)]);
              await set('enabled', true);
              return found;
            } finally {
              await c.call('chat.pause', { app: 'telegram', ms: 0 }).catch(() => undefined);
            }
          })();
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
