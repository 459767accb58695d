import { z } from 'zod';
import { Urgency } from '../../shared/domain';

/** The NOTIFY channel every replica listens on. */
export const HUB_CHANNEL = 'gatehouse_hub';

/**
 * What one replica tells the others, sent with pg_notify in the transaction that made the
 * change, so it goes out only when that change is committed. Small: ids only; each replica
 * reads the rest from the database.
 */
export const HubNotice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('decision'), machineId: z.string(), decisionId: z.string() }),
  z.object({ kind: z.literal('revoked'), machineId: z.string() }),
  /**
   * Machines published requests or their outcomes: the team dashboards reload. One notice
   * covers a replica's publishes of a short window (published-notices.ts), so no machine.
   */
  z.object({ kind: z.literal('published'), machineId: z.string().optional() }),
  /** A vote counted toward a team rule's quorum: the machine's waiting agent hears the count. */
  z.object({
    kind: z.literal('quorum'),
    machineId: z.string(),
    requestId: z.string(),
    approvals: z.number().int(),
    needed: z.number().int(),
  }),
  /**
   * A request waiting on another machine, for the desktop of a machine whose owner chose it:
   * the replica holding that machine's link sends it (the per-person round queued it once;
   * a machine offline then gets it when it links: hub-desktop-notices.ts).
   */
  z.object({
    kind: z.literal('team_waiting'),
    machineId: z.string(),
    requestId: z.string(),
    machine: z.string(),
    title: z.string(),
    urgency: Urgency,
    link: z.string(),
    /** The request's own machine and the round's kind: the queued notice's key, claimed once. */
    filedOn: z.string().optional(),
    reminder: z.boolean().optional(),
  }),
  /** A team policy bundle was published: every replica sends it to the machines linked there. */
  z.object({ kind: z.literal('team_policy'), version: z.number().int().positive() }),
]);
export type HubNotice = z.infer<typeof HubNotice>;
