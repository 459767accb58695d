import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { GroupName, PersonName } from '../../shared/hub-protocol';
import type { HubRoute } from './hub-person-api';
import type { HubTeamRules } from './hub-team-rules';

const GroupParams = z.object({ name: GroupName }).strict();
const MemberParams = z.object({ group: GroupName, person: PersonName }).strict();
const RuleIdParams = z.object({ ruleId: z.string().regex(/^tr_[0-9a-f]{12}$/) }).strict();

/**
 * The hub admin's API for groups and team decision rules (`gatehouse hub group …`,
 * `gatehouse hub rule …` on the hub's host): every route needs the hub admin token, so a
 * person, whatever their role, can neither put themself in a group nor change a rule.
 */
export function teamApiRoutes(d: {
  team: HubTeamRules;
  admin: (req: IncomingMessage) => Promise<void>;
}): Record<string, HubRoute> {
  return {
    'GET /api/admin/groups': async (req) => {
      await d.admin(req);
      return { groups: await d.team.groups() };
    },
    'POST /api/admin/groups': async (req, body) => {
      await d.admin(req);
      return d.team.addGroup(GroupParams.parse(body).name);
    },
    'POST /api/admin/groups/remove': async (req, body) => {
      await d.admin(req);
      await d.team.removeGroup(GroupParams.parse(body).name);
      return { ok: true };
    },
    'POST /api/admin/groups/members': async (req, body) => {
      await d.admin(req);
      const p = MemberParams.parse(body);
      await d.team.addMember(p.group, p.person);
      return { ok: true };
    },
    'POST /api/admin/groups/members/remove': async (req, body) => {
      await d.admin(req);
      const p = MemberParams.parse(body);
      await d.team.removeMember(p.group, p.person);
      return { ok: true };
    },
    'GET /api/admin/rules': async (req) => {
      await d.admin(req);
      return { rules: await d.team.rules() };
    },
    'POST /api/admin/rules': async (req, body) => {
      await d.admin(req);
      return { rule: await d.team.addRule(body) };
    },
    'POST /api/admin/rules/remove': async (req, body) => {
      await d.admin(req);
      await d.team.removeRule(RuleIdParams.parse(body).ruleId);
      return { ok: true };
    },
  };
}
