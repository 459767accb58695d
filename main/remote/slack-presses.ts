import { z } from 'zod';
import type { SlackApi } from '../notify/slack-api';
import type { ChatPresses } from './chat-presses';

/**
 * The parts of a `block_actions` payload (docs.slack.dev/reference/interaction-payloads/
 * block_actions-payload) a press needs: who pressed, on which message, which button.
 */
const BlockActions = z.object({
  type: z.literal('block_actions'),
  user: z.object({
    id: z.string().max(40),
    username: z.string().max(100).optional(),
    name: z.string().max(100).optional(),
  }),
  container: z
    .object({
      message_ts: z.string().max(40).optional(),
      channel_id: z.string().max(40).optional(),
    })
    .optional(),
  channel: z.object({ id: z.string().max(40) }).optional(),
  actions: z
    .array(
      z.object({
        action_id: z.string().max(255),
        value: z.string().max(2000).optional(),
        action_ts: z.string().max(40).optional(),
      }),
    )
    .max(25),
});

/** Presses remembered to be handled once (Slack delivers again what it thinks unacknowledged). */
const REMEMBERED = 5_000;

/** How a Slack user is shown and recorded: `@name (U…)`. */
const slackUserLabel = (u: z.infer<typeof BlockActions>['user']): string =>
  `@${u.username ?? u.name ?? 'user'} (${u.id})`;

/**
 * Turns a `block_actions` payload into a decision, or into nothing, through the apps' common
 * ChatPresses (allow-list, MAC'd button of that very message, single-use token, audit), and
 * answers the presser with a message only they see (`chat.postEphemeral`). A press Slack
 * delivers again (a retry after a late or lost acknowledgement, a reconnect mid-press) is
 * recognised by its user, message, button and `action_ts` and handled once; even past that
 * memory (a restart) its token is already spent. The answer is not awaited: the envelope is
 * acknowledged as soon as the decision is made.
 */
export class SlackPresses {
  private readonly seen = new Set<string>();

  constructor(
    private readonly d: {
      api: SlackApi;
      presses: ChatPresses;
      log: (message: string, error?: unknown) => void;
    },
  ) {}

  async handle(payload: unknown): Promise<void> {
    const parsed = BlockActions.safeParse(payload);
    if (!parsed.success) return;
    const p = parsed.data;
    const channel = p.container?.channel_id ?? p.channel?.id;
    for (const action of p.actions) {
      if (!action.action_id.startsWith('gatehouse-')) continue;
      const key = [p.user.id, channel, p.container?.message_ts, action.action_ts, action.value]
        .map((s) => s ?? '')
        .join('|');
      if (this.remember(key)) continue;
      const answer = await this.d.presses
        .decide({
          userId: p.user.id,
          userLabel: slackUserLabel(p.user),
          data: action.value ?? '',
          ...(channel && p.container?.message_ts
            ? { message: { chatId: channel, messageId: p.container.message_ts } }
            : {}),
        })
        .then(
          (r) => r.text,
          (e: unknown) => {
            this.d.log('slack press', e);
            return 'Something went wrong; try the dashboard.';
          },
        );
      if (channel)
        void this.d.api
          .postEphemeral({ channel, user: p.user.id, text: answer })
          .catch((e: unknown) => this.d.log('slack chat.postEphemeral', e));
    }
  }

  /** True when the press was seen already; otherwise remembers it (the oldest forgotten). */
  private remember(key: string): boolean {
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.values().next().value!);
    return false;
  }
}
