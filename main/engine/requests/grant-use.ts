import type { Clock } from '../../../shared/clock';
import { actionFingerprint } from './action-fingerprint';
import type { GrantBook, GrantQuery } from './grants';
import type { ActionDescription, Classification } from '../policy/classifier';
import { isWatchRule } from '../policy/project-run-inputs';
import { isProtectedRule } from '../policy/protected-paths';
import { isTeamRule } from '../policy/team-rules';
import { compact } from '../kernel/records';
import type { GrantRecord } from './requests-store';
import type { SessionRow } from '../sessions/sessions-store';
import type { Unit, UnitOfWork } from '../kernel/unit-of-work';
import { provenanceOfGrant, ruleOf } from '../../../shared/provenance';

/**
 * Requests that only a person's "once" (or a late approval of exactly them) settles: Gatehouse's
 * own files, a run after its inputs changed (grants were given for what they said before), and
 * what a team rule asks about (the team asks each time; a person's own approval still decides).
 */
export const grantsLocked = (rule: string): boolean =>
  isProtectedRule(rule) || isWatchRule(rule) || isTeamRule(rule);

/**
 * Where a relayed call runs (`runsIn`) and the directories its relative words are opened in
 * (`dirs`: that one and any its command `cd`s to); both absent for an agent's own `request`.
 */
export interface CallPlace {
  runsIn?: string | undefined;
  dirs?: readonly string[] | undefined;
}

/** Thrown inside a unit to roll back grants used by a call that turned out not covered. */
class GrantsUsedUp extends Error {}

/**
 * Where grants settle a call outside the review queue (which uses them up when it files a
 * request): what `classify` reports, and a relayed tool call (`gate`) let through on grants.
 * A grant is used up wherever it lets a call through, never where it is only reported.
 */
export class GrantUse {
  constructor(
    private readonly grants: GrantBook,
    private readonly work: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * The grant question for an action that asks, as the review queue asks it; `at` is where a
   * relayed call runs (see actionFingerprint) and the directories its words are opened in.
   */
  query(
    session: SessionRow,
    a: ActionDescription,
    c: Classification,
    at: CallPlace = {},
  ): GrantQuery {
    return compact({
      agent: session.agent,
      sessionId: session.sessionId,
      project: session.project,
      action: a.action,
      fingerprint: actionFingerprint(a, at.runsIn),
      description: a,
      dirs: at.dirs,
      kinds: grantsLocked(c.rule) ? (['late_approval'] as const) : undefined,
    });
  }

  /**
   * What `classify` reports. A grant never makes it `auto`: classify only reports, and an
   * agent that read `auto` would go ahead without using the grant up. A covered action is
   * `ask` with the grant named, so the `request` that follows is approved at once and uses it.
   */
  report(session: SessionRow, a: ActionDescription, c: Classification): Classification {
    if (c.tier === 'auto') return c;
    const grant = this.grants.find(this.query(session, a, c), this.clock.now());
    return grant
      ? {
          ...c,
          rule: ruleOf(provenanceOfGrant(grant)),
          reason: `${c.reason}; a ${grant.kind.replace('_', ' ')} grant covers it: request it and it is approved at once, using the grant`,
        }
      : c;
  }

  /**
   * Lets a relayed tool call through on grants: every asking action must be covered, and
   * each covering grant is used up in the same transaction as `record` (which logs the call).
   * Nothing is written when one is not covered (the call then files a request). Each action
   * comes with where it runs: a late approval covers it only there, and a grant's paths are
   * matched where its words are opened.
   */
  allow(
    session: SessionRow,
    asking: readonly { a: ActionDescription; c: Classification; at?: CallPlace }[],
    record: (u: Unit) => void,
  ): GrantRecord[] | undefined {
    const queries = asking.map(({ a, c, at }) => this.query(session, a, c, at));
    const now = this.clock.now();
    if (!queries.every((q) => this.grants.find(q, now))) return undefined;
    try {
      return this.work.run((u) => {
        const used = queries.map((q) => {
          const g = this.grants.consume(u, q);
          // Two actions of one call on a last use: the second is not covered; roll back.
          if (!g) throw new GrantsUsedUp();
          return g;
        });
        record(u);
        return used;
      });
    } catch (error) {
      if (error instanceof GrantsUsedUp) return undefined;
      throw error;
    }
  }
}
