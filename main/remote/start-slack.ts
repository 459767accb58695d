import { z } from 'zod';
import type { GatehouseEvent } from '../../shared/events';
import type { RequestRecord } from '../../shared/domain';
import type { Settings } from '../../shared/settings';
import { iso, type Clock } from '../../shared/clock';
import type { ChannelWayBack } from '../../shared/protocol/admin-methods';
import type { AuditFields } from '../engine/kernel/unit-of-work';
import { isProtectedRule } from '../engine/policy/protected-paths';
import { SlackApi, type SlackBlock, type SlackButton } from '../notify/slack-api';
import { decidedBlocks, pictureSummary } from '../notify/slack-blocks';
import type { SlackButtonsPort } from '../notify/slack-channel';
import type { ChatButtonsRepository } from '../store/chat-buttons-repository';
import { ChatButtons } from './chat-buttons';
import { decidedLine } from './chat-decided-line';
import { ChatPresses } from './chat-presses';
import type { DecisionLinks } from './decision-links';
import type { LinkDecider } from './link-decider';
import { SlackPresses } from './slack-presses';
import { SlackSocket, type SlackSocketState } from './slack-socket';

const APP = 'slack';

/** What is kept of a posted message to edit it once decided (`chat_messages.text`). */
const PostedMessage = z.object({ text: z.string(), blocks: z.array(z.unknown()) });

const button = (
  text: string,
  decision: string,
  value: string,
  style?: 'primary' | 'danger',
): SlackButton => ({
  type: 'button',
  text: { type: 'plain_text', text },
  action_id: `gatehouse-${decision}`,
  value,
  ...(style ? { style } : {}),
});

/**
 * Slack for a composition root: the buttons the channel posts, the Socket Mode way back while
 * `notifications.channels.slack` is enabled with both tokens (following settings changes),
 * and the edit of a request's message (`chat.update`, buttons removed) once it is decided
 * from any surface.
 */
export function startSlack(o: {
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
  buttons: SlackButtonsPort;
  /** The Socket Mode connection's health while it runs (for `status` and the dashboard). */
  wayBack(): ChannelWayBack | undefined;
  stop(): Promise<void>;
} {
  const config = () => o.getSettings().notifications.channels.slack;
  const api = new SlackApi(config, o.fetch);
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
  const presses = new SlackPresses({ api, presses: chatPresses, log: o.log });
  let socket: SlackSocket | undefined;
  let socketKey = '';
  let state: ChannelWayBack | undefined;
  const track = (s: SlackSocketState): void => {
    // `since` is when the connection last came up or went down, not every failed retry.
    const since = state && state.connected === s.connected ? state.since : iso(o.clock.now());
    state = s.connected
      ? { connected: true, since }
      : { connected: false, since, ...(s.error ? { error: s.error } : {}) };
  };
  const sync = async (): Promise<void> => {
    const c = config();
    const key =
      c.enabled && c.botToken && c.appToken
        ? JSON.stringify([c.apiBase, c.botToken, c.appToken])
        : '';
    if (key === socketKey) return;
    await socket?.stop();
    socket = undefined;
    state = undefined;
    socketKey = key;
    if (!key) return;
    state = { connected: false, since: iso(o.clock.now()) };
    socket = new SlackSocket({
      api,
      apiBase: () => config().apiBase,
      clock: o.clock,
      onInteractive: (payload) => presses.handle(payload),
      onState: track,
      log: o.log,
      ...(o.initialBackoffMs !== undefined ? { initialBackoffMs: o.initialBackoffMs } : {}),
    });
    socket.start();
  };
  const edit = async (r: RequestRecord): Promise<void> => {
    const posted = o.store.message(APP, r.requestId);
    const pressed = chatPresses.takePresser(r.requestId);
    if (!posted) return;
    const presser = r.decidedVia === 'chat:slack' ? pressed : undefined;
    o.store.forgetMessage(APP, r.requestId);
    let stored: unknown;
    try {
      stored = JSON.parse(posted.text);
    } catch {
      return;
    }
    const kept = PostedMessage.safeParse(stored);
    if (!kept.success) return;
    const line = decidedLine(r, presser);
    await api.update({
      channel: posted.chatId,
      ts: posted.messageId,
      text: `${kept.data.text}\n${line}`.slice(0, 4000),
      blocks: decidedBlocks(kept.data.blocks as SlackBlock[], line),
    });
  };
  const unsubscribe = o.subscribe((event) => {
    if (event.type === 'settings.changed')
      queueMicrotask(() => void sync().catch((e: unknown) => o.log('slack', e)));
    else if (event.type === 'request.decided' || event.type === 'request.cancelled')
      void edit(event.request).catch((e: unknown) => o.log('slack edit', e));
  });
  void sync().catch((e: unknown) => o.log('slack', e));
  return {
    buttons: {
      async forRequest(requestId) {
        const request = await o.getRequest(requestId).catch(() => undefined);
        const row = [
          button('Approve', 'approve', buttons.issue(requestId, 'approve'), 'primary'),
          button('Deny', 'deny', buttons.issue(requestId, 'deny'), 'danger'),
        ];
        // Gatehouse's own files are approved once only (the engine refuses more).
        if (request && !isProtectedRule(request.rule))
          row.push(
            button(
              'Approve for this session',
              'approve_session',
              buttons.issue(requestId, 'approve_session'),
            ),
          );
        return { buttons: row, picture: pictureSummary(request?.picture) };
      },
      testButtons: () => [button('Test the buttons', 'test', buttons.issueTest())],
      posted(requestId, channel, ts, message) {
        o.store.saveMessage(
          { app: APP, requestId, chatId: channel, messageId: ts, text: JSON.stringify(message) },
          o.clock.now(),
        );
      },
    },
    wayBack: () => state,
    async stop() {
      unsubscribe();
      await socket?.stop();
      socket = undefined;
    },
  };
}
