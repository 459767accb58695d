import type { RequestRecord, Urgency } from '../domain';
import { agentBlocked } from '../agent-blocked';

/** How long a blocked agent waits before its request counts as urgent. */
export const LONG_WAIT_MS = 5 * 60_000;

/** An urgency Gatehouse inferred for a request, and why. */
export interface InferredUrgency {
  urgency: Urgency;
  reasons: string[];
}

const PRODUCTION = /(^|[^a-z])(prod|production)([^a-z]|$)/i;
const MAIN_BRANCH = /(^|[\s:/+])(main|master)(\s|$)/;

/**
 * The urgency a request needs when its agent gave none (it says `normal`, the default): `high`
 * for a high or critical risk, a target or command naming production, a push to `main` or
 * `master`, a force push, or an agent blocked on the answer for {@link LONG_WAIT_MS}; each
 * with its reason. Undefined when none applies or the agent chose an urgency itself (`low`
 * or `high`). Inference only raises: it never makes a request less urgent.
 */
export function inferUrgency(
  r: Pick<
    RequestRecord,
    | 'urgency'
    | 'risk'
    | 'target'
    | 'command'
    | 'action'
    | 'status'
    | 'timeoutAt'
    | 'createdAt'
    | 'picture'
  >,
  now: number,
): InferredUrgency | undefined {
  if (r.urgency !== 'normal') return undefined;
  const reasons: string[] = [];
  if (r.risk === 'critical' || r.risk === 'high') reasons.push(`${r.risk} risk`);
  const where = [r.target, r.command].filter(Boolean).join(' ');
  if (PRODUCTION.test(where)) reasons.push('it targets production');
  const push = r.picture?.push;
  const isPush = r.action === 'git_push';
  if (push?.force || (isPush && /\s(-f|--force\S*)(\s|$)|\s\+\S/.test(` ${r.command ?? ''}`)))
    reasons.push('a force push');
  if (
    isPush &&
    (MAIN_BRANCH.test(` ${where}`) || push?.branch === 'main' || push?.branch === 'master')
  )
    reasons.push('a push to the main branch');
  const waited = now - Date.parse(r.createdAt);
  if (agentBlocked(r) && waited >= LONG_WAIT_MS)
    reasons.push(`an agent has been blocked on it for ${Math.floor(waited / 60_000)} min`);
  return reasons.length ? { urgency: 'high', reasons } : undefined;
}
