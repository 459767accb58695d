import type { GatehouseEvent } from '../../shared/events';
import type { RequestRecord } from '../../shared/domain';
import type { Settings } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import type { ChannelWayBack } from '../../shared/protocol/admin-methods';
import type { AuditFields } from '../engine/kernel/unit-of-work';
import { isProtectedRule } from '../engine/policy/protected-paths';
import { TelegramApi } from '../notify/telegram-api';
import type { TelegramButtonsPort } from '../notify/telegram-channel';
import type { InlineKeyboard } from '../notify/telegram-api';
import type { ChatButtonsRepository } from '../store/chat-buttons-repository';
import { ChatButtons } from './chat-buttons';
import { WayBackTracker } from './chat-way-back-health';
import { decidedLine } from './chat-decided-line';
import { ChatPresses } from './chat-presses';
import type { DecisionLinks } from './decision-links';
import type { LinkDecider } from './link-decider';
import { oneAtATime } from './one-at-a-time';
import { TelegramPoller } from './telegram-poller';
import { TelegramPresses } from './telegram-presses';

const APP = 'telegram';

/**
 * Telegram for a composition root: the buttons the channel posts, the `getUpdates` way back
 * while `notifications.channels.telegram` is enabled with a token (following settings
 * changes), and the edit of a request's message once it is decided from any surface.
 */
export function startTelegram(o: {
  getSettings: () => Settings;
  subscribe: (listener: (event: GatehouseEvent) => void) => () => void;
  links: DecisionLinks;
  decider: Pick<LinkDecider, 'redeemAction'>;
  store: ChatButtonsRepository;
  key: string;
  clock: Clock;
  getRequest: (requestId: string) => Promise<RequestRecord | undefined>;
  audit: (type: string, fields: AuditFields) => Promise<void>;
  log: (message: string, error?: unknown) => void;
  fetch?: typeof fetch;
  initialBackoffMs?: number;
}): {
  buttons: TelegramButtonsPort;
  /** The poll's health while it runs (for `status` and the dashboard). */
  wayBack(): ChannelWayBack | undefined;
  /** Stops the poll for `ms` (a set-up reads the updates meanwhile); 0 resumes it now. */
  pause(ms: number): Promise<void>;
  stop(): Promise<void>;
} {
  const config = () => o.getSettings().notifications.channels.telegram;
  const api = new TelegramApi(config, o.fetch);
  const buttons = new ChatButtons({
    app: APP,
    links: o.links,
    store: o.store,
    key: o.key,
    now: () => o.clock.now(),
  });
  const chatPresses = new ChatPresses({
    app: APP,
    allowedUserIds: () => config().allowedUserIds,
    buttons,
    store: o.store,
    decider: o.decider,
    audit: o.audit,
    now: () => o.clock.now(),
  });
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
  return {
    buttons: {
      async keyboardFor(requestId): Promise<InlineKeyboard> {
        const request = await o.getRequest(requestId).catch(() => undefined);
        const row = [
          { text: 'Approve', callback_data: buttons.issue(requestId, 'approve') },
          { text: 'Deny', callback_data: buttons.issue(requestId, 'deny') },
        ];
        // Gatehouse's own files are approved once only (the engine refuses more).
        const session =
          request && !isProtectedRule(request.rule)
            ? [
                [
                  {
                    text: 'Approve for this session',
                    callback_data: buttons.issue(requestId, 'approve_session'),
                  },
                ],
              ]
            : [];
        return [row, ...session];
      },
      testKeyboard: () => [[{ text: 'Test the buttons', callback_data: buttons.issueTest() }]],
      posted(requestId, chatId, messageId, text) {
        o.store.saveMessage(
          { app: APP, requestId, chatId, messageId: String(messageId), text },
          o.clock.now(),
        );
      },
    },
    wayBack: () => wayBack.current(),
    async pause(ms) {
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
    },
    async stop() {
      stopped = true;
      paused?.timer.cancel();
      unsubscribe();
      await poller?.stop();
      poller = undefined;
    },
  };
}
