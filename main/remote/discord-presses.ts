import { z } from 'zod';
import type { DiscordApi, DiscordMessageBody } from '../notify/discord-api';
import type { ChatPresses } from './chat-presses';

const User = z.object({ id: z.string(), username: z.string().optional() });

/** The parts of an INTERACTION_CREATE read here (a message component press is type 3). */
const Interaction = z.object({
  id: z.string().regex(/^\d{1,20}$/),
  application_id: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
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
/**
 * A press not decided this long after Discord created it is acknowledged at once (type 6)
 * and answered later: Discord refuses an answer after 3 s, and the answer's own trip takes
 * time too.
 */
export const DEFER_AFTER_MS = 1_500;
/** Discord's epoch in a snowflake id (its top bits are milliseconds since 2015). */
const DISCORD_EPOCH = 1_420_070_400_000n;

/**
 * When Discord created an interaction, from its snowflake id; never later than `now` (a
 * clock behind Discord's would otherwise put it in the future).
 */
export function interactionCreatedAt(id: string, now: number): number {
  return Math.min(now, Number((BigInt(id) >> 22n) + DISCORD_EPOCH));
}

/** How a Discord user is shown and recorded: `@name (id)`. */
export const discordUserLabel = (u: z.infer<typeof User>): string =>
  `@${u.username ?? 'user'} (${u.id})`;

/**
 * Discord's side of a press: an INTERACTION_CREATE for a button, read as a chat press (who,
 * the custom_id, the message it was pressed on) and decided by {@link ChatPresses}. The press
 * is answered within Discord's 3 s through the interaction callback: the pressed message
 * updated in place (type 7: who decided, no buttons) when it decided, otherwise a message
 * only the presser sees (type 4, ephemeral) saying why not. A press not decided within
 * {@link DEFER_AFTER_MS} of its creation (a slow decision, or a dispatch that arrived late)
 * is acknowledged at once (type 6, deferred update); the message is then edited like after
 * any decision and the presser told the outcome in an ephemeral follow-up. An interaction
 * seen before (a dispatch replayed after a resume) is not handled again.
 */
export class DiscordPresses {
  private readonly seen = new Set<string>();

  constructor(
    private readonly d: {
      api: Pick<DiscordApi, 'respond' | 'followUp'>;
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
      now?: () => number;
    },
  ) {}

  async handle(data: unknown): Promise<void> {
    const parsed = Interaction.safeParse(data);
    if (!parsed.success || parsed.data.type !== MESSAGE_COMPONENT) return;
    const i = parsed.data;
    if (this.seen.has(i.id)) return;
    this.seen.add(i.id);
    if (this.seen.size > SEEN) this.seen.delete(this.seen.values().next().value!);
    const now = this.d.now ?? Date.now;
    const deferIn = interactionCreatedAt(i.id, now()) + DEFER_AFTER_MS - now();
    let deferred: Promise<boolean> | undefined;
    const defer = () =>
      (deferred ??= this.d.api.respond(i.id, i.token, { type: 6 }).then(
        () => true,
        (e: unknown) => {
          this.d.log('discord interaction deferral', e);
          return false;
        },
      ));
    // Late already (the dispatch came late): acknowledged before deciding.
    if (deferIn <= 0) void defer();
    const timer = deferIn > 0 ? setTimeout(() => void defer(), deferIn) : undefined;
    let outcome: { text: string; update?: DiscordMessageBody; requestId?: string };
    try {
      outcome = await this.decide(i);
    } finally {
      clearTimeout(timer);
    }
    const { text, update, requestId } = outcome;
    let updatedInPlace = false;
    if (deferred) {
      // Acknowledged already: the message is edited as after any decision, the presser told.
      const acknowledged = await deferred;
      if (requestId) this.d.done(requestId, false);
      if (acknowledged && i.application_id)
        await this.d.api
          .followUp(i.application_id, i.token, text)
          .catch((e: unknown) => this.d.log('discord interaction follow-up', e));
      return;
    }
    const response = update
      ? ({ type: 7, data: update } as const)
      : ({ type: 4, data: { content: text, flags: 64 } } as const);
    await this.d.api.respond(i.id, i.token, response).then(
      () => (updatedInPlace = update !== undefined),
      (e: unknown) => this.d.log('discord interaction callback', e),
    );
    if (requestId) this.d.done(requestId, updatedInPlace);
  }

  /** Decides the press; never throws (a failure is a message for the presser). */
  private async decide(
    i: z.infer<typeof Interaction>,
  ): Promise<{ text: string; update?: DiscordMessageBody; requestId?: string }> {
    const presser = i.member?.user ?? i.user;
    if (!presser) return { text: 'You are not allowed to decide Gatehouse requests.' };
    try {
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
      const requestId = result.requestId;
      const update = requestId && result.decided ? this.d.decidedMessage(requestId) : undefined;
      return {
        text: result.text,
        ...(update ? { update } : {}),
        ...(requestId ? { requestId } : {}),
      };
    } catch (e) {
      this.d.log('discord press', e);
      return { text: 'Something went wrong; try the dashboard.' };
    }
  }
}
