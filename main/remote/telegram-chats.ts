import type { TelegramChatSeen } from '../../shared/protocol/notify-methods';
import type { TelegramApi, TelegramUpdate } from '../notify/telegram-api';

/**
 * The chats that wrote to the bot, newest first, one entry a chat, for a set-up to choose
 * where requests go: the person sends `/start` to the bot and picks their chat. It reads
 * `getUpdates` for `message` updates without ever confirming one (no `offset`), so a button
 * press waiting meanwhile stays for the daemon's own poll (paused by the caller: two polls of
 * one bot conflict). It returns as soon as a chat has sent `/start`, or after `waitS` seconds
 * with what it saw. Updates already read are skipped; with only those waiting, it polls once a
 * second instead of spinning.
 */
export async function findTelegramChats(
  api: Pick<TelegramApi, 'getUpdates'>,
  waitS: number,
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<TelegramChatSeen[]> {
  const deadline = now() + waitS * 1000;
  const seen = new Set<number>();
  const chats = new Map<string, TelegramChatSeen>();
  for (;;) {
    const left = Math.max(0, Math.ceil((deadline - now()) / 1000));
    const updates = await api.getUpdates({
      timeout: Math.min(30, left),
      allowed_updates: ['message'],
    });
    const fresh = updates.filter((u) => !seen.has(u.update_id));
    for (const u of fresh) {
      seen.add(u.update_id);
      const chat = chatOf(u);
      if (chat) {
        chats.delete(chat.chatId);
        chats.set(chat.chatId, chat);
      }
    }
    const all = [...chats.values()].reverse();
    if (all.some((c) => c.sentStart) || now() >= deadline) return all;
    if (fresh.length === 0 && updates.length > 0) await sleep(1_000);
  }
}

/** The chat and its writer of a message from a person (a bot's own posts are not a chat to pick). */
function chatOf(u: TelegramUpdate): TelegramChatSeen | undefined {
  const m = u.message;
  if (!m?.from || m.from.is_bot) return undefined;
  return {
    chatId: String(m.chat.id),
    userId: String(m.from.id),
    ...(m.from.username ? { username: m.from.username } : {}),
    ...(m.from.first_name ? { name: m.from.first_name } : {}),
    sentStart: /^\/start(\s|@|$)/.test(m.text?.trim() ?? ''),
  };
}
