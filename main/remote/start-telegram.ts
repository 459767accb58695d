import type { RequestRecord } from '../../shared/domain';
import type { ChannelWayBack } from '../../shared/protocol/admin-methods';
import { TelegramApi } from '../notify/telegram-api';
import type { TelegramButtonsPort } from '../notify/telegram-channel';
import type { InlineKeyboard } from '../notify/telegram-api';
import { chatButtonsAndPresses, decisionButtons, type ChatAppDeps } from './chat-app';
import { WayBackTracker } from './chat-way-back-health';
import { decidedLine } from './chat-decided-line';
import { editIfDecidedMeanwhile } from './chat-decided-before-posted';
import { oneAtATime } from './one-at-a-time';
import { TelegramPoller } from './telegram-poller';
import { TelegramPresses } from './telegram-presses';
import { findTelegramChats } from './telegram-chats';
import type { TelegramChatSeen } from '../../shared/protocol/notify-methods';

const APP = 'telegram';

/**
 * Telegram for a composition root: the buttons the channel posts, the `getUpdates` way back
 * while `notifications.channels.telegram` is enabled with a token (following settings
 * changes), and the edit of a request's message once it is decided from any surface.
 */
export function startTelegram(o: ChatAppDeps): {
  buttons: TelegramButtonsPort;
  /** The poll's health while it runs (for `status` and the dashboard). */
  wayBack(): ChannelWayBack | undefined;
  /** Stops the poll for `ms` (a set-up reads the updates meanwhile); 0 resumes it now. */
  pause(ms: number): Promise<void>;
  /** The chats that wrote to the saved bot, its poll paused meanwhile (a set-up choosing one). */
  findChats(waitS: number): Promise<{ bot: string; chats: TelegramChatSeen[] }>;
  stop(): Promise<void>;
} {
  const config = () => o.getSettings().notifications.channels.telegram;
  const api = new TelegramApi(config, o.fetch);
  const { buttons, presses: chatPresses } = chatButtonsAndPresses(
    APP,
    o,
    () => config().allowedUserIds,
  );
  const presses = new TelegramPresses({ api, presses: chatPresses, log: o.log });
  let poller: TelegramPoller | undefined;
  let pollerKey = '';
  const wayBack = new WayBackTracker(() => o.clock.now());
  let paused: { until: number; timer: { cancel(): void } } | undefined;
  let stopped = false;
  const syncNow = async (): Promise<void> => {
    const c = config();
    const key =
      c.enabled && c.botToken && !paused && !stopped ? JSON.stringify([c.apiBase, c.botToken]) : '';
    if (key === pollerKey) return;
    await poller?.stop();
    poller = undefined;
    wayBack.clear();
    pollerKey = key;
    if (!key) return;
    wayBack.starting();
    poller = new TelegramPoller({
      api,
      clock: o.clock,
      cursor: {
        read: () => {
          const v = o.store.cursor(APP);
          return v === undefined ? undefined : Number(v);
        },
        write: (offset) => o.store.saveCursor(APP, String(offset)),
      },
      onUpdate: async (u) => {
        if (u.callback_query) await presses.handle(u.callback_query);
      },
      log: o.log,
      onState: (state) => wayBack.report(state),
      ...(o.initialBackoffMs !== undefined ? { initialBackoffMs: o.initialBackoffMs } : {}),
    });
    poller.start();
  };
  // One sync at a time: two overlapping ones would each start a poll of the same bot.
  const sync = oneAtATime(syncNow);
  const edit = async (r: RequestRecord): Promise<void> => {
    const posted = o.store.message(APP, r.requestId);
    if (!posted) return;
    const pressed = chatPresses.takePresser(r.requestId);
    const presser = r.decidedVia === 'chat:telegram' ? pressed : undefined;
    o.store.forgetMessage(APP, r.requestId);
    // No reply_markup: the edit removes the buttons.
    await api.editMessageText({
      chat_id: posted.chatId,
      message_id: Number(posted.messageId),
      text: `${posted.text}\n\n${decidedLine(r, presser)}`.slice(0, 4096),
    });
  };
  const unsubscribe = o.subscribe((event) => {
    if (event.type === 'settings.changed')
      queueMicrotask(() => void sync().catch((e: unknown) => o.log('telegram', e)));
    else if (event.type === 'request.decided' || event.type === 'request.cancelled')
      void edit(event.request).catch((e: unknown) => o.log('telegram edit', e));
  });
  void sync().catch((e: unknown) => o.log('telegram', e));
  const pause = async (ms: number): Promise<void> => {
    paused?.timer.cancel();
    paused = undefined;
    if (ms > 0) {
      const timer = o.clock.setTimer(ms, () => {
        paused = undefined;
        void sync().catch((e: unknown) => o.log('telegram', e));
      });
      paused = { until: o.clock.now() + ms, timer };
    }
    // Returns once the poll has stopped (or started again): no two polls overlap.
    await sync();
  };
  return {
    buttons: {
      async keyboardFor(requestId): Promise<InlineKeyboard> {
        const request = await o.getRequest(requestId).catch(() => undefined);
        const keys = decisionButtons(request).map(({ label, decision }) => ({
          text: label,
          callback_data: buttons.issue(requestId, decision),
        }));
        // Approve and Deny side by side, Approve for this session below them.
        return [keys.slice(0, 2), ...(keys.length > 2 ? [keys.slice(2)] : [])];
      },
      testKeyboard: () => [[{ text: 'Test the buttons', callback_data: buttons.issueTest() }]],
      posted(requestId, chatId, messageId, text) {
        o.store.saveMessage(
          { app: APP, requestId, chatId, messageId: String(messageId), text },
          o.clock.now(),
        );
        editIfDecidedMeanwhile(requestId, {
          getRequest: o.getRequest,
          edit: (r) => void edit(r).catch((e: unknown) => o.log('telegram edit', e)),
          log: o.log,
        });
      },
    },
    wayBack: () => wayBack.current(),
    pause,
    async findChats(waitS) {
      const me = await api.getMe();
      // Paused a minute past the wait: a set-up that dies midway leaves no poll stopped for long.
      await pause((waitS + 60) * 1000);
      try {
        const chats = await findTelegramChats(api, waitS);
        return { bot: me.username ?? String(me.id), chats };
      } finally {
        await pause(0);
      }
    },
    async stop() {
      stopped = true;
      paused?.timer.cancel();
      unsubscribe();
      // Through the queue: a sync still waiting there cannot start a poll after this.
      await sync();
    },
  };
}
