import { z } from 'zod';
import { DecisionScope, RequestRecord, Urgency } from '../domain';
import { HubDecisionTerms, MachineName, PersonName, PersonRole } from '../hub-protocol';
import { RuleOffers } from '../hub-rule-offers';
import { PersonNotifyPrefs } from './hub-person-notify';

/**
 * The team dashboard's API on the hub: `POST /web/api/<method>` with a JSON body, signed in
 * by the browser's session cookie and carrying the session's CSRF token. The hub answers each
 * from its database, scoped to the signed-in person's role (docs/hub.md, "Roles"): a viewer
 * reads, an approver also decides, an admin also manages machines and people.
 */

/** What a team decision rule means for the signed-in person and one request. */
export const HubTeamView = z.object({
  rule: z.string(),
  /** The rule in words: what it matches and what it asks for. */
  text: z.string(),
  /** The groups that may decide it now (an escalation adds one). */
  groups: z.array(z.string()),
  approvals: z.number().int(),
  needed: z.number().int(),
  /** False: the person sees the request read-only, and `why` says why. */
  mayDecide: z.boolean(),
  why: z.string().optional(),
});
export type HubTeamView = z.infer<typeof HubTeamView>;

/** A group of people on the hub, and who is in it by which source. */
export const HubGroupView = z.object({
  name: z.string(),
  members: z.array(z.object({ name: z.string(), sources: z.array(z.enum(['hub', 'identity'])) })),
});
export type HubGroupView = z.infer<typeof HubGroupView>;

/** A request a machine published, as the team dashboard lists it. */
export const HubRequestView = z.object({
  machine: MachineName,
  requestId: z.string(),
  status: z.string(),
  record: RequestRecord,
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The standing hub decision, when a person decided on the hub. */
  hubDecision: z
    .object({ person: z.string(), outcome: z.enum(['applied', 'refused']).optional() })
    .optional(),
  /** A team decision rule governs it: who may decide, and how far its quorum got. */
  team: HubTeamView.optional(),
  /** The rules its machine offers for a session or "always" approval, narrowest first. */
  offers: RuleOffers.optional(),
});
export type HubRequestView = z.infer<typeof HubRequestView>;

export const HubRequestFilter = z.object({
  /** `waiting`: what a person still has to decide; `decided`: the history. */
  state: z.enum(['waiting', 'decided', 'all']).default('waiting'),
  machine: MachineName.optional(),
  project: z.string().max(4096).optional(),
  agent: z.string().max(256).optional(),
  /** At least this urgent. */
  urgency: Urgency.optional(),
  /** Only requests whose agent is blocked waiting for the answer (pending, not timed out). */
  blocked: z.boolean().optional(),
  limit: z.number().int().positive().max(500).default(200),
});
export type HubRequestFilter = z.input<typeof HubRequestFilter>;

export const HubMachineView = z.object({
  name: MachineName,
  joinedAt: z.number(),
  /** Linked to a replica now (seen within the last heartbeat interval). */
  online: z.boolean(),
  lastSeenAt: z.number().optional(),
  version: z.string().optional(),
  revokedAt: z.number().optional(),
});
export type HubMachineView = z.infer<typeof HubMachineView>;

export const HubPersonView = z.object({
  name: PersonName,
  role: PersonRole,
  createdAt: z.number(),
  lastSignInAt: z.number().optional(),
});
export type HubPersonView = z.infer<typeof HubPersonView>;

const Empty = z.object({}).strict();
const RequestKey = z.object({ machine: MachineName, requestId: z.string().min(1).max(128) });

export const hubWebMethods = {
  me: {
    params: Empty,
    result: z.object({
      person: z.object({ name: PersonName, role: PersonRole }),
      /** Sent back in the X-Gatehouse-Csrf header on every later call. */
      csrf: z.string(),
      replica: z.string(),
    }),
  },
  'requests.list': {
    params: HubRequestFilter,
    result: z.object({ requests: z.array(HubRequestView) }),
  },
  'requests.show': { params: RequestKey, result: z.object({ request: HubRequestView }) },
  decide: {
    params: RequestKey.extend({
      decision: z.enum(['approve', 'deny']),
      /** Session or always saves the rule of the machine's offers that `terms.ruleOffer` names. */
      scope: DecisionScope.default('once'),
      reason: z.string().max(2000).optional(),
      /** An approval's envelope, message for the agent, conditions, and chosen rule offer. */
      terms: HubDecisionTerms.pick({
        envelope: true,
        message: true,
        conditions: true,
        ruleOffer: true,
      })
        .strict()
        .optional(),
    }),
    /** `decided` false: the vote counted toward a team rule's quorum (approvals of needed). */
    result: z.object({
      decisionId: z.string().optional(),
      person: z.string(),
      decided: z.boolean(),
      approvals: z.number().int().optional(),
      needed: z.number().int().optional(),
    }),
  },
  'machines.list': { params: Empty, result: z.object({ machines: z.array(HubMachineView) }) },
  'machines.revoke': {
    params: z.object({ machine: MachineName }),
    result: z.object({ ok: z.literal(true) }),
  },
  'people.list': { params: Empty, result: z.object({ people: z.array(HubPersonView) }) },
  'groups.list': { params: Empty, result: z.object({ groups: z.array(HubGroupView) }) },
  'people.add': {
    params: z.object({ name: PersonName, role: PersonRole }),
    /** The sign-in token; the link is `<hub>/#signin=<token>`. */
    result: z.object({ token: z.string(), expiresAt: z.number() }),
  },
  'people.link': {
    params: z.object({ name: PersonName }),
    /** A new sign-in token for someone already on the hub. */
    result: z.object({ token: z.string(), expiresAt: z.number() }),
  },
  /** The signed-in person's own channel and reminders, and which channels the hub offers. */
  'notify.get': {
    params: Empty,
    result: z.object({
      prefs: PersonNotifyPrefs,
      /** The kinds of channel the hub's admin turned on: a person chooses among them. */
      offered: z.array(z.enum(['ntfy', 'email', 'webhook'])),
    }),
  },
  /** Replaces them (as `POST /api/me/notify` does; a webhook is checked against the allow-list). */
  'notify.set': { params: PersonNotifyPrefs, result: z.object({ prefs: PersonNotifyPrefs }) },
} as const;

export type HubWebMethod = keyof typeof hubWebMethods;
export type HubWebParams<K extends HubWebMethod> = z.input<(typeof hubWebMethods)[K]['params']>;
export type HubWebResult<K extends HubWebMethod> = z.infer<(typeof hubWebMethods)[K]['result']>;

/** Which role each method needs at least. */
export const HUB_WEB_ROLE: Record<HubWebMethod, PersonRole> = {
  me: 'viewer',
  'requests.list': 'viewer',
  'requests.show': 'viewer',
  decide: 'approver',
  'machines.list': 'admin',
  'machines.revoke': 'admin',
  'people.list': 'admin',
  'groups.list': 'admin',
  'people.add': 'admin',
  'people.link': 'admin',
  // The hub notifies who may decide: a viewer has nothing to set.
  'notify.get': 'approver',
  'notify.set': 'approver',
};

export const roleAtLeast = (role: PersonRole, needed: PersonRole): boolean => {
  const rank = { viewer: 0, approver: 1, admin: 2 } as const;
  return rank[role] >= rank[needed];
};

export const isHubWebMethod = (name: string): name is HubWebMethod =>
  Object.prototype.hasOwnProperty.call(hubWebMethods, name);

/** The sign-in link's fragment key: `<hub>/#signin=<token>` (a fragment never reaches a server). */
export const SIGN_IN_FRAGMENT = 'signin';

/** The header a hub sends with its pages, so the one page knows it is the team dashboard. */
export const HUB_PAGE_HEADER = 'X-Gatehouse-Hub';

/** The team dashboard's live updates: a server-sent event stream (GET, the session cookie). */
export const HUB_EVENTS_PATH = '/web/events';

/**
 * One event of that stream: what changed, never the data (the page reloads it through its
 * own calls). `hello` starts each stream, and `reload` follows a gap in the hub's notices:
 * both mean "reload everything", which is how a page catches up after a reconnect.
 */
export const HubLiveEvent = z.object({
  kind: z.enum(['hello', 'requests', 'machines', 'reload']),
});
export type HubLiveEvent = z.infer<typeof HubLiveEvent>;
