import type { DecidedBy } from '../../../shared/domain';
import type { GateResult } from '../../../shared/protocol/agent-methods';

/**
 * Rules after which a call stays in the agent's sandbox even when a person let it through:
 * where Gatehouse could not tell which files the command touches (a path it cannot resolve,
 * a command whose effect is opaque, a call too large to read) or saw Gatehouse's own files,
 * the sandbox's refusal to show them is what still keeps the admin token from the agent.
 */
const KEEP_SANDBOXED = new Set([
  'protected:gatehouse',
  'protected:unresolved_path',
  'protected:too_large',
  'protected:special_file',
  'protected:gatehouse_secret',
  'shell:opaque',
]);

/** What let an action through that is the person's own word: their rules and grants. */
const PERSONS = /^(user|decision|grant):/;
/** Gatehouse's built-in table: harmless on its own, so it neither lifts nor keeps. */
const BUILT_IN = /^default:/;

/**
 * Whether a call let through may run outside the agent's OS sandbox: only when a person let
 * it through, by approving its request (`human`, or `grant` when a grant of theirs settled
 * it as it was filed), or by a rule or grant of theirs for an action of it while the rest
 * is the built-in table's auto. Gatehouse's own table, the automation ladder and a project
 * file's promotions (which the agent may have written) never lift it: auto-tier calls stay
 * sandboxed, so they cannot reach the network.
 */
export function mayLeaveSandbox(
  actions: GateResult['actions'],
  decidedBy: DecidedBy | undefined,
): boolean {
  if (actions.some((a) => KEEP_SANDBOXED.has(a.rule))) return false;
  if (decidedBy === 'human' || decidedBy === 'grant') return true;
  if (actions.some((a) => a.tier !== 'auto')) return false;
  return (
    actions.some((a) => PERSONS.test(a.rule)) &&
    actions.every((a) => PERSONS.test(a.rule) || BUILT_IN.test(a.rule))
  );
}
