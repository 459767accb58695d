import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { normaliseDraft } from '../../shared/policy/rule-match';
import { TeamRule, TeamRuleId, TeamRuleMode } from '../../shared/policy/team-policy';
import type { HubRoute } from './hub-person-api';
import type { TeamPolicyService } from './team-policy-service';

const AddParams = TeamRule.omit({ ruleId: true });
const RuleParams = z.object({ ruleId: TeamRuleId });
const ModeParams = RuleParams.extend({ mode: TeamRuleMode });
/** At most a year back. */
const ReportQuery = z.object({
  rule: TeamRuleId.optional(),
  sinceMs: z.coerce
    .number()
    .int()
    .positive()
    .max(366 * 24 * 60 * 60_000),
});

/**
 * The team policy's admin routes (`gatehouse hub policy …` on the hub's host, with the hub's
 * admin token): edit the rules, publish a signed bundle, read the shadow rules' report.
 */
export function teamPolicyApiRoutes(d: {
  team: TeamPolicyService;
  admin: (req: IncomingMessage) => Promise<void>;
}): Record<string, HubRoute> {
  return {
    'GET /api/admin/policy': async (req) => {
      await d.admin(req);
      return d.team.list();
    },
    'POST /api/admin/policy/add': async (req, body) => {
      await d.admin(req);
      const p = AddParams.parse(body);
      // The same matchers as a machine's own rules, normalised the same way.
      const { action: _action, ...matchers } = normaliseDraft(p);
      return {
        rule: await d.team.addRule({
          action: p.action,
          ...matchers,
          tier: p.tier,
          mode: p.mode,
          ...(p.note ? { note: p.note } : {}),
        }),
      };
    },
    'POST /api/admin/policy/remove': async (req, body) => {
      await d.admin(req);
      await d.team.removeRule(RuleParams.parse(body).ruleId);
      return { ok: true };
    },
    'POST /api/admin/policy/mode': async (req, body) => {
      await d.admin(req);
      const p = ModeParams.parse(body);
      return { rule: await d.team.setMode(p.ruleId, p.mode) };
    },
    'POST /api/admin/policy/publish': async (req) => {
      await d.admin(req);
      return d.team.publish();
    },
    'GET /api/admin/policy/shadow': async (req) => {
      await d.admin(req);
      const q = ReportQuery.parse(
        Object.fromEntries(new URL(req.url ?? '/', 'http://hub').searchParams),
      );
      return d.team.report({ sinceMs: q.sinceMs, ...(q.rule ? { ruleId: q.rule } : {}) });
    },
  };
}
