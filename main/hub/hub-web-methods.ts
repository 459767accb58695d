import type { Urgency } from '../../shared/domain';
import {
  HUB_WEB_ROLE,
  hubWebMethods,
  roleAtLeast,
  type HubMachineView,
  type HubRequestView,
  type HubWebMethod,
  type HubWebResult,
} from '../../shared/protocol/hub-web-methods';
import type { Clock } from '../../shared/clock';
import type { PersonRole } from '../../shared/hub-protocol';
import { HubRefusal, type HubService } from './hub-service';
import type { HubTeamRules } from './hub-team-rules';
import type { Person } from './store/people-repo';
import type { MachineRow } from './store/machines-repo';
import type { HubRequest } from './store/requests-repo';

type Handler<K extends HubWebMethod> = (
  params: (typeof hubWebMethods)[K]['params']['_output'],
  who: { person: Person; sessionId: string },
) => Promise<HubWebResult<K>>;

const URGENCIES_AT_LEAST: Record<Urgency, Urgency[]> = {
  low: ['low', 'normal', 'high'],
  normal: ['normal', 'high'],
  high: ['high'],
};

/**
 * The team dashboard's methods, answered from the hub's database: each is checked against the
 * role it needs (a viewer reads, an approver decides, an admin manages machines and people)
 * before its params are even parsed, and every param is validated with the shared schema.
 */
export function hubWebHandlers(d: {
  hub: HubService;
  /** The team's groups and decision rules; requests then say who may decide them. */
  team?: HubTeamRules;
  clock: Clock;
  replica: string;
  csrf: (sessionId: string) => string;
  /** The person's own channel and reminders (hub-person-notify-api.ts). */
  notify?: {
    get(person: Person): Promise<HubWebResult<'notify.get'>>;
    set(person: Person, prefs: unknown): Promise<HubWebResult<'notify.set'>>;
  };
  /** Throws when a sign-in link may not be made now (single sign-on is on: hub-sso-api.ts). */
  checkSignInLink?: (
    o: { role: PersonRole; bootstrap: false } | { person: string; bootstrap: false },
  ) => Promise<void>;
}) {
  const view = (
    r: HubRequest & { hubDecision?: HubRequestView['hubDecision'] },
  ): HubRequestView => ({
    machine: r.machineName,
    requestId: r.requestId,
    status: r.status,
    record: r.record,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    hubDecision: r.hubDecision,
    offers: r.offers,
  });
  /** Each request with what the team's rules mean for this person (read-only, and why). */
  const withTeam = async (
    person: Person,
    requests: (HubRequest & { hubDecision?: HubRequestView['hubDecision'] })[],
  ): Promise<HubRequestView[]> => {
    const team = d.team;
    if (!team) return requests.map(view);
    const machines = new Map((await d.hub.machines()).map((m) => [m.name, m]));
    const views = await team.viewsFor(person, requests, (name) => machines.get(name) ?? { name });
    // Left out of the JSON where no rule governs the request (undefined).
    return requests.map((r, i) => ({ ...view(r), team: views[i] }));
  };
  const machineView = (m: MachineRow, now: number): HubMachineView => ({
    name: m.name,
    joinedAt: m.joinedAt,
    online: m.revokedAt === undefined && (m.onlineUntil ?? 0) > now,
    lastSeenAt: m.lastSeenAt,
    version: m.version,
    revokedAt: m.revokedAt,
  });

  const handlers: { [K in HubWebMethod]: Handler<K> } = {
    me: async (_p, who) => ({
      person: { name: who.person.name, role: who.person.role },
      csrf: d.csrf(who.sessionId),
      replica: d.replica,
    }),
    'requests.list': async (p, who) => {
      const requests = await d.hub.requests({
        ...(p.state === 'waiting'
          ? { waiting: true }
          : p.state === 'decided'
            ? { decided: true }
            : {}),
        ...(p.machine ? { machine: p.machine } : {}),
        ...(p.project ? { project: p.project } : {}),
        ...(p.agent ? { agent: p.agent } : {}),
        ...(p.urgency ? { urgencies: URGENCIES_AT_LEAST[p.urgency] } : {}),
        ...(p.blocked ? { blocked: true } : {}),
        limit: p.limit,
      });
      return { requests: await withTeam(who.person, requests) };
    },
    'requests.show': async (p, who) => {
      const found = await d.hub.request(p.machine, p.requestId);
      if (!found)
        throw new HubRefusal(404, `machine ${p.machine} published no request ${p.requestId}`);
      return { request: (await withTeam(who.person, [found]))[0]! };
    },
    decide: async (p, who) => {
      const o = await d.hub.decide(who.person, p, 'dashboard');
      return {
        ...(o.decisionId ? { decisionId: o.decisionId } : {}),
        person: o.person,
        decided: o.decided,
        ...(o.approvals !== undefined ? { approvals: o.approvals, needed: o.needed } : {}),
      };
    },
    'machines.list': async () => {
      const now = d.clock.now();
      return { machines: (await d.hub.machines()).map((m) => machineView(m, now)) };
    },
    'machines.revoke': async (p, who) => {
      await d.hub.revoke(p.machine, who.person.name);
      return { ok: true as const };
    },
    'people.list': async () => ({ people: await d.hub.people() }),
    'groups.list': async () => ({
      groups:
        (await d.team?.groups())?.map((g) => ({
          name: g.name,
          members: g.members.map((m) => ({ name: m.name, sources: m.sources })),
        })) ?? [],
    }),
    'people.add': async (p, who) => {
      await d.checkSignInLink?.({ role: p.role, bootstrap: false });
      const r = await d.hub.addPerson(p.name, p.role, { actor: who.person.name });
      return { token: r.token, expiresAt: r.expiresAt! };
    },
    'people.link': async (p, who) => {
      await d.checkSignInLink?.({ person: p.name, bootstrap: false });
      return d.hub.newSignInLink(p.name, who.person.name);
    },
    'notify.get': async (_p, who) => ownNotify().get(who.person),
    'notify.set': async (p, who) => ownNotify().set(who.person, p),
  };
  const ownNotify = () => {
    if (!d.notify) throw new HubRefusal(404, 'this hub keeps no notification settings');
    return d.notify;
  };

  /** Runs one method for a signed-in person; a refusal names the role it needs. */
  return async (
    method: HubWebMethod,
    rawParams: unknown,
    who: { person: Person; sessionId: string },
  ): Promise<unknown> => {
    const needed = HUB_WEB_ROLE[method];
    if (!roleAtLeast(who.person.role, needed))
      throw new HubRefusal(
        403,
        `${who.person.name} is ${withArticle(who.person.role)}; ${method} needs ${withArticle(needed)}`,
      );
    const params: unknown = hubWebMethods[method].params.parse(rawParams);
    return (handlers[method] as Handler<HubWebMethod>)(params as never, who);
  };
}

const withArticle = (role: string): string => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
