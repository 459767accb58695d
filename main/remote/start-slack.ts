import { z } from 'zod';
import type { RequestRecord } from '../../shared/domain';
import type { ChannelWayBack } from '../../shared/protocol/admin-methods';
import { SlackApi, type SlackBlock, type SlackButton } from '../notify/slack-api';
import { decidedBlocks, pictureSummary, withPicture } from '../notify/slack-blocks';
import type { SlackButtonsPort } from '../notify/slack-channel';
import { chatButtonsAndPresses, decisionButtons, type ChatAppDeps } from './chat-app';
import { WayBackTracker } from './chat-way-back-health';
import { decidedLine } from './chat-decided-line';
import { editIfDecidedMeanwhile } from './chat-decided-before-posted';
import { oneAtATime } from './one-at-a-time';
import { SlackPresses } from './slack-presses';
import { SlackSocket } from './slack-socket';

const APP = 'slack';
/** Approve is Slack's primary button, Deny its danger button; the session button is plain. */
const STYLE: Partial<Record<string, 'primary' | 'danger'>> = { approve: 'primary', deny: 'danger' };

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
export function startSlack(o: ChatAppDeps): {
  buttons: SlackButtonsPort;
  /** The Socket Mode connection's health while it runs (for `status` and the dashboard). */
  wayBack(): ChannelWayBack | undefined;
  stop(): Promise<void>;
} {
  const config = () => o.getSettings().notifications.channels.slack;
  const api = new SlackApi(config, o.fetch);
  const { buttons, presses: chatPresses } = chatButtonsAndPresses(
    APP,
    o,
    () => config().allowedUserIds,
  );
  const presses = new SlackPresses({ api, presses: chatPresses, log: o.log });
  let socket: SlackSocket | undefined;
  let socketKey = '';
  let stopped = false;
  const wayBack = new WayBackTracker(() => o.clock.now());
  const syncNow = async (): Promise<void> => {
    const c = config();
    const key =
      c.enabled && c.botToken && c.appToken && !stopped
        ? JSON.stringify([c.apiBase, c.botToken, c.appToken])
        : '';
    if (key === socketKey) return;
    await socket?.stop();
    socket = undefined;
    wayBack.clear();
    socketKey = key;
    if (!key) return;
    wayBack.starting();
    socket = new SlackSocket({
      api,
      apiBase: () => config().apiBase,
      clock: o.clock,
      onInteractive: (payload) => presses.handle(payload),
      onState: (state) => wayBack.report(state),
      log: o.log,
      ...(o.initialBackoffMs !== undefined ? { initialBackoffMs: o.initialBackoffMs } : {}),
    });
    socket.start();
  };
  // One sync at a time: two overlapping ones would each open a connection of the same app.
  const sync = oneAtATime(syncNow);
  /** A posted message as kept (`chat_messages.text`): its fallback text and blocks. */
  const kept = (requestId: string) => {
    const posted = o.store.message(APP, requestId);
    if (!posted) return undefined;
    let stored: unknown;
    try {
      stored = JSON.parse(posted.text);
    } catch {
      return undefined;
    }
    const parsed = PostedMessage.safeParse(stored);
    return parsed.success
      ? { posted, text: parsed.data.text, blocks: parsed.data.blocks as SlackBlock[] }
      : undefined;
  };
  // Edits of one message go to Slack one after another: a picture's edit must not land after
  // the decision's edit and bring the buttons back.
  let edits = Promise.resolve();
  const serially = (label: string, fn: () => Promise<void>): void => {
    edits = edits.then(fn).catch((e: unknown) => o.log(label, e));
  };
  const edit = async (r: RequestRecord): Promise<void> => {
    const message = kept(r.requestId);
    const pressed = chatPresses.takePresser(r.requestId);
    pictures.delete(r.requestId);
    if (!message) return;
    const presser = r.decidedVia === 'chat:slack' ? pressed : undefined;
    o.store.forgetMessage(APP, r.requestId);
    const line = decidedLine(r, presser);
    await api.update({
      channel: message.posted.chatId,
      ts: message.posted.messageId,
      text: `${message.text}\n${line}`.slice(0, 4000),
      blocks: decidedBlocks(message.blocks, line),
    });
  };
  // Pictures computed before their request's message was posted (kept a short while).
  const pictures = new Map<string, string[]>();
  const addPicture = async (requestId: string, lines: string[]): Promise<void> => {
    const message = kept(requestId);
    if (!message) {
      pictures.set(requestId, lines);
      if (pictures.size > 200) pictures.delete(pictures.keys().next().value!);
      return;
    }
    const blocks = withPicture(message.blocks, lines);
    if (!blocks) return;
    o.store.saveMessage(
      { ...message.posted, text: JSON.stringify({ text: message.text, blocks }) },
      o.clock.now(),
    );
    await api.update({
      channel: message.posted.chatId,
      ts: message.posted.messageId,
      text: message.text,
      blocks,
    });
  };
  const unsubscribe = o.subscribe((event) => {
    if (event.type === 'settings.changed')
      queueMicrotask(() => void sync().catch((e: unknown) => o.log('slack', e)));
    else if (event.type === 'request.decided' || event.type === 'request.cancelled') {
      const request = event.request;
      serially('slack edit', () => edit(request));
    } else if (event.type === 'request.picture') {
      const lines = pictureSummary(event.picture);
      if (lines.length) serially('slack picture', () => addPicture(event.requestId, lines));
    }
  });
  void sync().catch((e: unknown) => o.log('slack', e));
  return {
    buttons: {
      async forRequest(requestId) {
        const request = await o.getRequest(requestId).catch(() => undefined);
        const row = decisionButtons(request).map(({ label, decision }) =>
          button(label, decision, buttons.issue(requestId, decision), STYLE[decision]),
        );
        return { buttons: row, picture: pictureSummary(request?.picture) };
      },
      testButtons: () => [button('Test the buttons', 'test', buttons.issueTest())],
      posted(requestId, channel, ts, message) {
        o.store.saveMessage(
          { app: APP, requestId, chatId: channel, messageId: ts, text: JSON.stringify(message) },
          o.clock.now(),
        );
        // Its picture came while it was being posted: the message gets it now.
        const lines = pictures.get(requestId);
        pictures.delete(requestId);
        if (lines) serially('slack picture', () => addPicture(requestId, lines));
        editIfDecidedMeanwhile(requestId, {
          getRequest: o.getRequest,
          edit: (r) => serially('slack edit', () => edit(r)),
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
