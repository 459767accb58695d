import type { RuleMatchers } from '../../../shared/domain';
import type { Envelope } from '../../../shared/protocol/admin-methods';
import type { IdSource } from '../kernel/ids';
import type { ActionDescription } from '../policy/classifier';
import { matchersCover } from '../../../shared/policy/rule-match';
import { compact } from '../kernel/records';
import type { GrantsStore, GrantRecord, RequestRow } from './requests-store';
import type { Unit } from '../kernel/unit-of-work';

export interface GrantQuery {
  agent: string;
  sessionId: string;
  /** The session's project: a grant's `project` matcher compares with it. */
  project?: string | undefined;
  action: string;
  fingerprint: string;
  /** The action in full, for the grant's matchers (command, target, paths). */
  description: ActionDescription;
  /** Only grants of these kinds count (a protected request takes late approvals only). */
  kinds?: readonly GrantRecord['kind'][] | undefined;
  /** Where the action's relative words are opened: a grant's paths must match there. */
  dirs?: readonly string[] | undefined;
}

/**
 * Remembered approvals. A late approval covers exactly one identical action once; a session
 * approval covers the rest of that session; an envelope covers N minutes, K uses or $X of
 * spend, whichever ends first. Session and envelope grants carry a rule's matchers (the
 * narrowest draft of the request unless the person widened it), so they cover what the
 * person saw, not the whole action.
 */
export class GrantBook {
  constructor(
    private readonly store: GrantsStore,
    private readonly ids: IdSource,
  ) {}

  issue(
    u: Unit,
    r: RequestRow,
    kind: GrantRecord['kind'],
    limits: Envelope,
    matchers?: RuleMatchers,
  ): GrantRecord {
    const grant: GrantRecord = compact({
      grantId: this.ids('gra'),
      agent: r.agent,
      sessionId: kind === 'session' ? r.sessionId : undefined,
      action: r.action,
      fingerprint: kind === 'late_approval' ? r.fingerprint : undefined,
      matchers,
      usesLeft: limits.uses,
      expiresAt: limits.minutes === undefined ? undefined : u.now + limits.minutes * 60_000,
      maxSpendUsd: limits.maxSpendUsd,
      spentUsd: 0,
      sourceRequestId: r.requestId,
      kind,
      createdAt: u.now,
    });
    this.store.insertGrant(grant);
    u.audit('grant.issued', {
      agent: r.agent,
      sessionId: r.sessionId,
      requestId: r.requestId,
      data: { ...grant },
    });
    return grant;
  }

  /** The first live grant covering the action, without using it up. */
  find(q: GrantQuery, now: number): GrantRecord | undefined {
    return this.store.listLiveGrants(q.agent, q.action).find((g) => this.covers(g, q, now));
  }

  /** Uses one grant covering the action; ends it when its last use is gone. */
  consume(u: Unit, q: GrantQuery): GrantRecord | undefined {
    const grant = this.find(q, u.now);
    if (!grant) return undefined;
    if (grant.usesLeft !== undefined) {
      const usesLeft = grant.usesLeft - 1;
      this.store.updateGrant(
        grant.grantId,
        usesLeft <= 0 ? { usesLeft, endedAt: u.now } : { usesLeft },
      );
    }
    u.audit('grant.used', {
      agent: q.agent,
      sessionId: q.sessionId,
      data: { grantId: grant.grantId, action: q.action },
    });
    return grant;
  }

  /** Counts spend against the agent's live envelopes that have a spend limit. */
  addSpend(u: Unit, agent: string, usd: number): void {
    if (usd <= 0) return;
    for (const g of this.store.listLiveGrantsForAgent(agent)) {
      if (g.maxSpendUsd === undefined) continue;
      const spentUsd = g.spentUsd + usd;
      this.store.updateGrant(
        g.grantId,
        spentUsd >= g.maxSpendUsd ? { spentUsd, endedAt: u.now } : { spentUsd },
      );
    }
  }

  private covers(g: GrantRecord, q: GrantQuery, now: number): boolean {
    if (q.kinds && !q.kinds.includes(g.kind)) return false;
    if (g.sessionId !== undefined && g.sessionId !== q.sessionId) return false;
    if (g.fingerprint !== undefined && g.fingerprint !== q.fingerprint) return false;
    if (
      g.matchers &&
      !matchersCover(g.matchers, { action: q.description, project: q.project, dirs: q.dirs })
    )
      return false;
    if (g.expiresAt !== undefined && now >= g.expiresAt) return false;
    if (g.usesLeft !== undefined && g.usesLeft <= 0) return false;
    if (g.maxSpendUsd !== undefined && g.spentUsd >= g.maxSpendUsd) return false;
    return true;
  }
}
