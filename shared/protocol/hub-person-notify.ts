import { z } from 'zod';

/**
 * Where the hub tells one person about the team's waiting requests, and when it reminds
 * them: their own ntfy topic (on the hub's ntfy server), mail address (through the hub's mail
 * server) or webhook, each only when the hub's admin set that channel up. Kept by the hub,
 * set by the person (`POST /api/me/notify`).
 */
export const PersonNotifyChannel = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ntfy'), topic: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }),
  z.object({ kind: z.literal('email'), to: z.string().email().max(320) }),
  z.object({
    kind: z.literal('webhook'),
    url: z
      .string()
      .max(2048)
      .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL'),
    /** The person's own signing key for their receiver (not the hub's team webhook's). */
    secret: z.string().max(256).default(''),
  }),
]);
export type PersonNotifyChannel = z.infer<typeof PersonNotifyChannel>;

export const PersonNotifyPrefs = z
  .object({
    channel: PersonNotifyChannel.optional(),
    /**
     * Also shown as a desktop notification on each machine this person owns (`hub invite
     * --owner`) while it is linked to the hub: their tray app or daemon, for the requests
     * waiting on another machine.
     */
    desktop: z.boolean().default(false),
    /** Told of each request that starts waiting (after these settings were made). */
    newRequests: z.boolean().default(true),
    /** Reminded once per request still waiting after this many minutes; none when absent. */
    remindAfterMinutes: z
      .number()
      .int()
      .positive()
      .max(7 * 24 * 60)
      .optional(),
  })
  .strict();
export type PersonNotifyPrefs = z.infer<typeof PersonNotifyPrefs>;
