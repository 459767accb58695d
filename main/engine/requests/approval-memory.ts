import type { z } from 'zod';
import type { RuleDraft, RuleRecord } from '../../../shared/domain';
import type { DecideParams } from '../../../shared/protocol/admin-methods';
import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import type { GrantBook } from './grants';
import { narrowestDraft } from '../policy/rule-draft';
import {
  describeRule,
  draftCovers,
  matchersOf,
  normaliseDraft,
  requestDirs,
} from '../../../shared/policy/rule-match';
import { compact } from '../kernel/records';
import type { GrantRecord, RequestRow } from './requests-store';
import type { Unit } from '../kernel/unit-of-work';

/** A rule or grant an approval left behind, named for the person who approved. */
export interface RememberedRule {
  ruleId: string;
  description: string;
}
export interface RememberedGrant {
  grantId: string;
  kind: GrantRecord['kind'];
  description: string;
}

/** Everything an approval remembered beyond the request itself. */
export interface Remembered {
  rule?: RememberedRule;
  grants: RememberedGrant[];
}

export interface ApprovalMemoryDeps {
  grants: GrantBook;
  addRule: (u: Unit, rule: Omit<RuleRecord, 'ruleId' | 'createdAt'>) => RuleRecord;
}

const invalid = (message: string, field: string): GatehouseError =>
  new GatehouseError(ErrorCode.InvalidParams, message, [{ path: field, message }]);

/**
 * The rule draft an approval remembers: the one the person chose, checked against the
 * request, or else the narrowest that covers the request. Throws -32602 before anything is
 * written when the chosen draft is for another action or does not cover the request, or when
 * the decision remembers nothing a draft could shape.
 */
export function draftFor(r: RequestRow, p: z.output<typeof DecideParams>): RuleDraft {
  if (p.rule === undefined) return narrowestDraft(r);
  if (p.decision !== 'approve' || (p.scope === 'once' && p.envelope === undefined))
    throw invalid(
      'a rule draft is used only when approving with scope "always" or "session" or an envelope',
      'rule',
    );
  const draft = normaliseDraft(p.rule);
  if (draft.action !== r.action)
    throw invalid(
      `the rule is for ${draft.action}, but request ${r.requestId} is ${r.action}`,
      'rule.action',
    );
  if (!draftCovers(draft, { action: r, project: r.project, dirs: requestDirs(r.context) }))
    throw invalid(
      `the rule "${describeRule(draft)}" does not cover request ${r.requestId}`,
      'rule',
    );
  return draft;
}

/**
 * What an approval leaves behind besides the approval itself: a one-time grant when the
 * request had timed out, a session grant, an envelope, an "always" rule. Session grants,
 * envelopes and rules all carry the draft's matchers, so each covers what the person saw.
 * Every grant is listed (a late approval with a session grant issues two).
 */
export function rememberApproval(
  d: ApprovalMemoryDeps,
  u: Unit,
  r: RequestRow,
  p: z.output<typeof DecideParams>,
  draft: RuleDraft,
): Remembered {
  const out: Remembered = { grants: [] };
  const matchers = matchersOf(draft);
  const description = describeRule(draft);
  const granted = (g: GrantRecord, what: string): void => {
    out.grants.push({ grantId: g.grantId, kind: g.kind, description: what });
  };
  if (r.status === 'timed_out')
    granted(d.grants.issue(u, r, 'late_approval', { uses: 1 }), `exactly this ${r.action}, once`);
  if (p.scope === 'session')
    granted(d.grants.issue(u, r, 'session', {}, matchers), `${description}, this session`);
  if (p.envelope) granted(d.grants.issue(u, r, 'envelope', p.envelope, matchers), description);
  if (p.scope === 'always') {
    const rule = d.addRule(
      u,
      compact({
        ...matchers,
        action: draft.action,
        tier: 'auto' as const,
        source: 'decision' as const,
        note: `from ${r.requestId}`,
      }),
    );
    out.rule = { ruleId: rule.ruleId, description };
  }
  return out;
}
