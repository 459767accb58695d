import { z } from 'zod';
import { RuleMatchers } from '../domain';

/**
 * Admin methods for grants: what a person's approvals let agents do without asking again (a
 * late approval once, a session approval for the session, an envelope for N minutes, K uses
 * or $X), for as long as each lasts.
 */

export const GrantsListParams = z
  .object({
    /** Only this agent's grants. */
    agent: z.string().min(1).max(64).optional(),
    limit: z.number().int().positive().max(500).default(100),
  })
  .default({ limit: 100 });

/** A grant still in force: not used up, not spent, not expired. */
export const LiveGrant = z.object({
  grantId: z.string(),
  agent: z.string(),
  /** Absent for grants that follow the agent across sessions (envelopes). */
  sessionId: z.string().optional(),
  action: z.string(),
  kind: z.enum(['late_approval', 'session', 'envelope']),
  /** What it covers beyond the action (absent: exactly the source request's action). */
  matchers: RuleMatchers.optional(),
  usesLeft: z.number().int().optional(),
  expiresAt: z.string().optional(),
  maxSpendUsd: z.number().optional(),
  spentUsd: z.number(),
  /** The request whose approval issued it. */
  sourceRequestId: z.string(),
  createdAt: z.string(),
});

export const GrantsListResult = z.object({
  /** Newest first, at most `limit`. */
  grants: z.array(LiveGrant),
});

export const GrantGetParams = z.object({ grantId: z.string().min(1).max(128) });

/**
 * One grant, in force or not: the `grant:` a decision names, even after it ran out. `endedAt`
 * says when it ended (its uses or budget used up, its session over); an expired grant has
 * `expiresAt` in the past and no `endedAt`.
 */
export const GrantGetResult = z.object({
  grant: LiveGrant.extend({ endedAt: z.string().optional() }),
});

export const grantAdminMethods = {
  'grants.list': { params: GrantsListParams, result: GrantsListResult, mutates: false },
  'grants.get': { params: GrantGetParams, result: GrantGetResult, mutates: false },
} as const;
