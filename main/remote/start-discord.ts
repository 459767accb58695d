import type { RequestRecord } from '../../shared/domain';
import type { LinkDecision } from '../../shared/remote';
import type { ChannelWayBack } from '../../shared/protocol/admin-methods';
import { DiscordApi, type DiscordActionRow } from '../notify/discord-api';
import type { DiscordButtonsPort } from '../notify/discord-channel';
import { chatButtonsAndPresses, decisionButtons, type ChatAppDeps } from './chat-app';
import { WayBackTracker } from './chat-way-back-health';
import { decidedLine } from './chat-decided-line';
import { editIfDecidedMeanwhile } from './chat-decided-before-posted';
import { DiscordGateway } from './discord-gateway';
import { decidedMessage, pictureFields } from './discord-message';
import { DiscordPresses } from './discord-presses';
import { oneAtATime } from './one-at-a-time';

const APP = 'discord';
/** Discord's button styles: Approve green (3), Deny red (4), the session button grey (2). */
const STYLE: Record<LinkDecision, 2 | 3 | 4> = { approve: 3, deny: 4, approve_session: 2 };
/** Interactions arrive without any intent; none is asked for. */
const INTENTS = 0;

/**
 * Discord for a composition root: the buttons the channel posts, the Gateway way back while
 * `notifications.channels.discord` is enabled with a token (following settings changes), and
 * the edit of a request's message once it is decided from any surface
 * (`PATCH /channels/{id}/messages/{id}`; a press that decided updates it in its answer).
 */
export function startDiscord(o: ChatAppDeps): {
  buttons: DiscordButtonsPort;
  /** The Gateway connection's health while it runs (for `status` and the dashboard). */
  wayBack(): ChannelWayBack | undefined;
  stop(): Promise<void>;
} {
  const config = () => o.getSettings().notifications.channels.discord;
  const api = new DiscordApi(config, o.fetch);
  const { buttons, presses: chatPresses } = chatButtonsAndPresses(
    APP,
    o,
    () => config().allowedUserIds,
  );
  // Requests decided by a press being answered now: that answer updates their message.
  const requests = new Map<string, RequestRecord>();
  const message = (r: RequestRecord) => {
    const posted = o.store.message(APP, r.requestId);
    if (!posted) return undefined;
    const presser = r.decidedVia === 'chat:discord' ? chatPresses.presser(r.requestId) : undefined;
    return { posted, body: decidedMessage(posted.text, r, decidedLine(r, presser)) };
  };
  const edit = async (r: RequestRecord): Promise<void> => {
    const m = message(r);
    chatPresses.takePresser(r.requestId);
    if (!m) return;
    o.store.forgetMessage(APP, r.requestId);
    await api.editMessage(m.posted.chatId, m.posted.messageId, m.body);
  };
  const presses = new DiscordPresses({
    api,
    presses: chatPresses,
    decidedMessage: (requestId) => {
      const r = requests.get(requestId);
      return r ? message(r)?.body : undefined;
    },
    done: (requestId, updatedInPlace) => {
      const r = requests.get(requestId);
      requests.delete(requestId);
      if (updatedInPlace) {
        o.store.forgetMessage(APP, requestId);
        chatPresses.takePresser(requestId);
      } else if (r) void edit(r).catch((e: unknown) => o.log('discord edit', e));
    },
    log: o.log,
  });
  let gateway: DiscordGateway | undefined;
  let gatewayKey = '';
  let stopped = false;
  const wayBack = new WayBackTracker(() => o.clock.now());
  const syncNow = async (): Promise<void> => {
    const c = config();
    const key =
      c.enabled && c.botToken && !stopped
        ? JSON.stringify([c.apiBase, c.botToken, c.gatewayUrl])
        : '';
    if (key === gatewayKey) return;
    gatewayKey = key;
    await gateway?.stop();
    gateway = undefined;
    wayBack.clear();
    if (!key) return;
    wayBack.starting();
    const token = c.botToken;
    gateway = new DiscordGateway({
      token,
      intents: INTENTS,
      gatewayUrl: async () => config().gatewayUrl || (await api.gatewayUrl()),
      onDispatch: async (type, data) => {
        if (type === 'INTERACTION_CREATE') await presses.handle(data);
      },
      onState: (state) => wayBack.report(state),
      log: o.log,
      ...(o.initialBackoffMs !== undefined ? { initialBackoffMs: o.initialBackoffMs } : {}),
    });
    gateway.start();
  };
  // One sync at a time: two overlapping ones would each start a connection of the same bot.
  const sync = oneAtATime(syncNow);
  const unsubscribe = o.subscribe((event) => {
    if (event.type === 'settings.changed')
      queueMicrotask(() => void sync().catch((e: unknown) => o.log('discord', e)));
    else if (event.type === 'request.decided' || event.type === 'request.cancelled') {
      const r = event.request;
      // Decided by a press being answered now: that answer updates the message (type 7).
      if (r.decidedVia === 'chat:discord' && chatPresses.presser(r.requestId) !== undefined)
        requests.set(r.requestId, r);
      else void edit(r).catch((e: unknown) => o.log('discord edit', e));
    }
  });
  void sync().catch((e: unknown) => o.log('discord', e));
  return {
    buttons: {
      async messageFor(requestId) {
        const request = await o.getRequest(requestId).catch(() => undefined);
        const row: DiscordActionRow = {
          type: 1,
          components: decisionButtons(request).map(({ label, decision }) => ({
            type: 2,
            style: STYLE[decision],
            label,
            custom_id: buttons.issue(requestId, decision),
          })),
        };
        return { components: [row], fields: pictureFields(request) };
      },
      testComponents: () => [
        {
          type: 1,
          components: [
            { type: 2, style: 1, label: 'Test the buttons', custom_id: buttons.issueTest() },
          ],
        },
      ],
      posted(requestId, channelId, messageId, embed) {
        o.store.saveMessage(
          { app: APP, requestId, chatId: channelId, messageId, text: JSON.stringify(embed) },
          o.clock.now(),
        );
        editIfDecidedMeanwhile(requestId, {
          getRequest: o.getRequest,
          edit: (r) => void edit(r).catch((e: unknown) => o.log('discord edit', e)),
          log: o.log,
        });
      },
    },
    wayBack: () => wayBack.current(),
    async stop() {
      stopped = true;
      unsubscribe();
      // Through the queue: a sync still waiting there cannot open a connection after this.
      await sync();
    },
  };
}
