import { z } from 'zod';
import type { AdminClient } from '../admin-client';

export const DISCORD_API = 'https://discord.com/api/v10';

/**
 * What the bot needs in the channel: View Channel (1024), Send Messages (2048) and Embed Links
 * (16384). Interactions (button presses) need no permission and no privileged intent.
 */
const BOT_PERMISSIONS = 1024 + 2048 + 16384;

const Me = z.object({ id: z.string(), username: z.string().optional() });
const Channel = z.object({ id: z.string(), name: z.string().nullish() });
const Failure = z.object({ message: z.string().optional(), code: z.number().optional() });

/** One REST call as the bot; the token is never echoed, only the route and Discord's words. */
async function discordGet(api: string, token: string, path: string): Promise<unknown> {
  const res = await fetch(`${api.replace(/\/+$/, '')}${path}`, {
    headers: { Authorization: `Bot ${token}` },
    redirect: 'error',
    signal: AbortSignal.timeout(15_000),
  });
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const f = Failure.safeParse(json);
    throw new DiscordSetupError(
      `discord GET ${path} failed: HTTP ${res.status} ${f.success ? (f.data.message ?? '') : ''}`.trim(),
      res.status,
    );
  }
  return json;
}

class DiscordSetupError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * `gatehouse chat setup discord`: checks the token (`GET /users/@me`), checks that the bot
 * sees the channel (`GET /channels/{id}`; else prints the invite link with the permissions it
 * needs), saves `notifications.channels.discord` (the channel, the people allowed to decide,
 * enabled last) and sends a test message whose button answers. Discord's Gateway is not read
 * here, so the daemon's connection is never raced.
 */
export async function setupDiscord(
  c: AdminClient,
  o: { token: string; api: string; channel?: string; allow?: string[]; test: boolean },
): Promise<void> {
  if (!o.channel || !/^\d{1,20}$/.test(o.channel))
    throw new Error('--channel <id> is required: the channel to post to (Copy Channel ID)');
  const allow = o.allow ?? [];
  if (allow.length === 0 || !allow.every((id) => /^\d{1,20}$/.test(id)))
    throw new Error('--allow <user id…> is required: who may decide (Copy User ID)');
  const me = Me.parse(await discordGet(o.api, o.token, '/users/@me'));
  const invite = `https://discord.com/oauth2/authorize?client_id=${me.id}&scope=bot&permissions=${BOT_PERMISSIONS}`;
  let channel: z.infer<typeof Channel>;
  try {
    channel = Channel.parse(await discordGet(o.api, o.token, `/channels/${o.channel}`));
  } catch (error) {
    if (error instanceof DiscordSetupError && (error.status === 403 || error.status === 404))
      throw new Error(
        `the bot cannot see channel ${o.channel} (${error.message}); invite it to the server first: ${invite}`,
      );
    throw error;
  }
  const set = (key: string, value: unknown) =>
    c.call('settings.set', { key: `notifications.channels.discord.${key}`, value });
  await set('apiBase', o.api);
  await set('botToken', o.token);
  await set('channelId', o.channel);
  await set('allowedUserIds', allow);
  await set('enabled', true);
  console.log(
    `Discord is set up: bot ${me.username ?? me.id} posts to #${channel.name ?? channel.id}; user${allow.length === 1 ? '' : 's'} ${allow.join(', ')} may decide.`,
  );
  if (!o.test) return;
  const test = await c.call('notifications.test', { channel: 'discord' });
  if (!test.ok) throw new Error(`the test message was not delivered: ${test.error ?? 'unknown'}`);
  console.log('A test message was sent; press its button to check the way back.');
}
