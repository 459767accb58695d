import { z } from 'zod';
import type { DiscordApi, DiscordMessageBody } from '../notify/discord-api';
import type { ChatPresses } from './chat-presses';

const User = z.object({ id: z.string(), username: z.string().optional() });

/** The parts of an INTERACTION_CREATE read here (a message component press is type 3). */
const Interaction = z.object({
  id: z.string().regex(/^\d{1,20}$/),
  type: z.number().int(),
  token: z.string().max(500),
  data: z.object({ custom_id: z.string().max(200).optional() }).optional(),
  channel_id: z.string().optional(),
  /** In a server the presser is `member.user`; in a DM, `user`. */
  member: z.object({ user: User }).optional(),
  user: User.optional(),
  message: z.object({ id: z.string(), channel_id: z.string().optional() }).optional(),
});

const MESSAGE_COMPONENT = 3;
/** Interaction ids remembered, so one replayed by a resume is answered once. */
const SEEN = 1_000;

/** How a Discord user is shown and recorded: `@name (id)`. */
export const discordUserLabel = (u: z.infer<typeof User>): string =>
  `@${u.username ?? 'user'} (${u.id})`;

/**
 * Discord's side of a press: an INTERACTION_CREATE for a button, read as a chat press (who,
 * the custom_id, the message it was pressed on) and decided by {@link ChatPresses}. The press
 * is answered within Discord's 3 s through the interaction callback: the pressed message
 * updated in place (type 7: who decided, no buttons) when it decided, otherwise a message
 * only the presser sees (type 4, ephemeral) saying why not. An interaction seen before (a
 * dispatch replayed after a resume) is not handled again.
 */
export class DiscordPresses {
  private readonly seen = new Set<string>();

  constructor(
    private readonly d: {
      api: Pick<DiscordApi, 'respond'>;
      presses: ChatPresses;
      /** The message of a request this press decided, as it reads once decided. */
      decidedMessage: (requestId: string) => DiscordMessageBody | undefined;
      /**
       * The press of a button of `requestId` is over; `updatedInPlace` when it decided and
       * its answer already updated the message (otherwise the message is edited as after any
       * decision).
       */
      done: (requestId: string, updatedInPlace: boolean) => void;
      log: (message: string, error?: unknown) => void;
    },
  ) {}

  async handle(data: unknown): Promise<void> {
    const parsed = Interaction.safeParse(data);
    if (!parsed.success || parsed.data.type !== MESSAGE_COMPONENT) return;
    const i = parsed.data;
    if (this.seen.has(i.id)) return;
    this.seen.add(i.id);
    if (this.seen.size > SEEN) this.seen.delete(this.seen.values().next().value!);
    const presser = i.member?.user ?? i.user;
    let text = 'Something went wrong; try the dashboard.';
    let update: DiscordMessageBody | undefined;
    let requestId: string | undefined;
    let updatedInPlace = false;
    try {
      if (!presser) text = 'You are not allowed to decide Gatehouse requests.';
      else {
        const result = await this.d.presses.decide({
          userId: presser.id,
          userLabel: discordUserLabel(presser),
          data: i.data?.custom_id ?? '',
          ...(i.message
            ? {
                message: {
                  chatId: i.message.channel_id ?? i.channel_id ?? '',
                  messageId: i.message.id,
                },
              }
            : {}),
        });
        text = result.text;
        requestId = result.requestId;
        if (requestId && result.decided) update = this.d.decidedMessage(requestId);
      }
    } finally {
      const response = update
        ? ({ type: 7, data: update } as const)
        : ({ type: 4, data: { content: text, flags: 64 } } as const);
      await this.d.api.respond(i.id, i.token, response).then(
        () => (updatedInPlace = update !== undefined),
        (e: unknown) => this.d.log('discord interaction callback', e),
      );
      if (requestId) this.d.done(requestId, updatedInPlace);
    }
  }
}
