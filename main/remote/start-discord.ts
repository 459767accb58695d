import type { GatehouseEvent } from '../../shared/events';
import type { RequestRecord } from '../../shared/domain';
import type { Settings } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import type { ChannelWayBack } from '../../shared/protocol/admin-methods';
import type { AuditFields } from '../engine/kernel/unit-of-work';
import { isProtectedRule } from '../engine/policy/protected-paths';
import { DiscordApi, type DiscordActionRow } from '../notify/discord-api';
import type { DiscordButtonsPort } from '../notify/discord-channel';
import type { ChatButtonsRepository } from '../store/chat-buttons-repository';
import { ChatButtons } from './chat-buttons';
import { WayBackTracker } from './chat-way-back-health';
import { decidedLine } from './chat-decided-line';
import { ChatPresses } from './chat-presses';
import type { DecisionLinks } from './decision-links';
import { DiscordGateway } from './discord-gateway';
import { decidedMessage, pictureFields } from './discord-message';
import { DiscordPresses } from './discord-presses';
import type { LinkDecider } from './link-decider';
import { oneAtATime } from './one-at-a-time';

const APP = 'discord';
/** Interactions arrive without any intent; none is asked for. */
const INTENTS = 0;

/**
 * Discord for a composition root: the buttons the channel posts, the Gateway way back while
 * `notifications.channels.discord` is enabled with a token (following settings changes), and
 * the edit of a request's message once it is decided from any surface
 * (`PATCH /channels/{id}/messages/{id}`; a press that decided updates it in its answer).
 */
export function startDiscord(o: {
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
  buttons: DiscordButtonsPort;
  /** The Gateway connection's health while it runs (for `status` and the dashboard). */
  wayBack(): ChannelWayBack | undefined;
  stop(): Promise<void>;
} {
  const config = () => o.getSettings().notifications.channels.discord;
  const api = new DiscordApi(config, o.fetch);
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
  const wayBack = new WayBackTracker(() => o.clock.now());
  const syncNow = async (): Promise<void> => {
    const c = config();
    const key =
      c.enabled && c.botToken ? JSON.stringify([c.apiBase, c.botToken, c.gatewayUrl]) : '';
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
          components: [
            { type: 2, style: 3, label: 'Approve', custom_id: buttons.issue(requestId, 'approve') },
            { type: 2, style: 4, label: 'Deny', custom_id: buttons.issue(requestId, 'deny') },
          ],
        };
        // Gatehouse's own files are approved once only (the engine refuses more).
        if (request && !isProtectedRule(request.rule))
          row.components.push({
            type: 2,
            style: 2,
            label: 'Approve for this session',
            custom_id: buttons.issue(requestId, 'approve_session'),
          });
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
      },
    },
    wayBack: () => wayBack.current(),
    async stop() {
      unsubscribe();
      gatewayKey = '';
      await gateway?.stop();
      gateway = undefined;
    },
  };
}
