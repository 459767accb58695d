import { z } from 'zod';
import { RuleMatchers } from '../domain';

/**
 * Team policy: rules an admin sets on the hub, pushed to every joined machine as one signed,
 * versioned bundle. A team rule is written in the same language as a person's rule (an action
 * and the same matchers, shared/domain.ts); what it may say is narrower. It asks or denies:
 * it never promotes to `auto`, so a hub (or whoever holds its key) can make machines stricter
 * but never let a call through that the machine would ask about. In `shadow` mode it is not
 * enforced; the machine records each call it would have decided differently.
 */
export const TeamTier = z.enum(['ask', 'deny']);
export type TeamTier = z.infer<typeof TeamTier>;
export const TeamRuleMode = z.enum(['enforce', 'shadow']);
export type TeamRuleMode = z.infer<typeof TeamRuleMode>;

/** The id a team rule has on the hub, named in a machine's audit and in its provenance. */
export const TeamRuleId = z.string().regex(/^tr-[a-z0-9]{4,40}$/, 'a team rule id (tr-…)');

export const TeamRule = RuleMatchers.extend({
  ruleId: TeamRuleId,
  action: z.string().min(1).max(128),
  tier: TeamTier,
  mode: TeamRuleMode,
  note: z.string().max(1024).optional(),
});
export type TeamRule = z.infer<typeof TeamRule>;

/** What the hub signs: the exact JSON text travels, so both sides check the same bytes. */
export const TeamPolicyBundle = z.object({
  v: z.literal(1),
  /** Grows by one with each publish; a machine takes only a version newer than its own. */
  version: z.number().int().positive(),
  publishedAt: z.number().int(),
  rules: z.array(TeamRule).max(1000),
});
export type TeamPolicyBundle = z.infer<typeof TeamPolicyBundle>;

/** The text the hub signs for a bundle, bound to its purpose like the link's other texts. */
export const teamPolicyText = (payload: string): string => `gatehouse-team-policy-v1\n${payload}`;

/** The rule string a call decided by a team rule carries: `team:v<version>:<rule id>`. */
export const teamRuleString = (version: number, ruleId: string): string =>
  `team:v${version}:${ruleId}`;

/** The version and rule id of a `team:` rule string, or undefined for any other. */
export function parseTeamRule(rule: string): { version: number; ruleId: string } | undefined {
  const m = /^team:v(\d+):(tr-[a-z0-9]{4,40})$/.exec(rule);
  return m ? { version: Number(m[1]), ruleId: m[2]! } : undefined;
}

/** Which team policy a machine runs, as `status`, `rules` and the dashboard show it. */
export const TeamPolicyInfo = z.object({
  /** 0 while the machine runs none (it may have refused one: `lastRefused`). */
  version: z.number().int().nonnegative(),
  publishedAt: z.number().int().optional(),
  acceptedAt: z.number().int().optional(),
  enforced: z.number().int().nonnegative(),
  shadow: z.number().int().nonnegative(),
  /** The last bundle this machine refused (bad signature, not newer), when any. */
  lastRefused: z.object({ at: z.number().int(), reason: z.string() }).optional(),
});
export type TeamPolicyInfo = z.infer<typeof TeamPolicyInfo>;

/**
 * One call a shadow rule would have decided differently: what it would have said and what
 * the call got. Kept on the machine and sent to the hub (`gatehouse hub policy shadow-report`).
 */
export const ShadowRecord = z.object({
  /** The machine's own id for the record (its row), so the hub stores it once. */
  id: z.number().int().positive(),
  at: z.number().int(),
  ruleId: TeamRuleId,
  version: z.number().int().positive(),
  action: z.string().max(128),
  would: TeamTier,
  actual: z.enum(['auto', 'ask', 'deny']),
  /** The command, target or first path, shortened: an example an admin can read. */
  summary: z.string().max(300),
  agent: z.string().max(128).optional(),
});
export type ShadowRecord = z.infer<typeof ShadowRecord>;
