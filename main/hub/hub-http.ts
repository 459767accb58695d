import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { DecisionScope } from '../../shared/domain';
import {
  HubDecisionTerms,
  JoinParams,
  MachineName,
  PersonName,
  PersonRole,
} from '../../shared/hub-protocol';
import { HubRefusal, type HubService } from './hub-service';
import type { Person } from './store/people-repo';
import type { HubRoute } from './hub-person-api';

const MAX_BODY_BYTES = 64 * 1024;

const InviteParams = z.object({
  machine: MachineName,
  ttlMinutes: z
    .number()
    .int()
    .positive()
    .max(7 * 24 * 60)
    .optional(),
  /** The person who owns the machine (a team rule may leave them out of its approvers). */
  owner: PersonName.optional(),
});
const RevokeParams = z.object({ machine: MachineName });
const PersonParams = z.object({
  name: PersonName,
  role: PersonRole,
  /** A personal token for the CLI instead of a sign-in link's token. */
  token: z.boolean().optional(),
  /** With single sign-on on: a sign-in link for an admin even though people sign in with it. */
  bootstrap: z.boolean().optional(),
});
const LinkParams = z.object({ name: PersonName, bootstrap: z.boolean().optional() });
const DecideParams = z.object({
  machine: MachineName,
  requestId: z.string().min(1).max(128),
  decision: z.enum(['approve', 'deny']),
  reason: z.string().max(2000).optional(),
  /** As the team dashboard sends it: the machine applies it with its own preview. */
  scope: DecisionScope.default('once'),
  /** Strict: a rule's text (`rule`) is refused, not dropped; a rule is named by its offer. */
  terms: HubDecisionTerms.strict().optional(),
});

/**
 * The hub's HTTP API. Three kinds of caller, each with its own credential: a machine joining
 * (its single-use code), the hub's admin CLI on its host (the hub's admin token file), and
 * people (their personal token). Every body is validated; no GET changes anything.
 */
export function hubHttpHandler(d: {
  hub: HubService;
  /** The hub's one admin token, checked against the database (any replica's host made it). */
  isAdminToken: (token: string) => Promise<boolean>;
  replica: string;
  database: string;
  /** The team dashboard (hub-web.ts): pages, sign-in and its calls; true when it answered. */
  web?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  /** Routes kept in their own files (the person's CLI API …), keyed `METHOD /path`. */
  more?: Record<string, HubRoute>;
  /** Throws when a sign-in link may not be made now (single sign-on is on: hub-sso-api.ts). */
  checkSignInLink?: (
    o: { role: PersonRole; bootstrap: boolean } | { person: string; bootstrap: boolean },
  ) => Promise<void>;
}) {
  const routes: Record<string, HubRoute> = {
    ...d.more,
    'GET /api/health': async () => ({ ok: true, replica: d.replica, database: d.database }),
    'POST /api/join': async (_req, body) => d.hub.join(JoinParams.parse(body)),
    'POST /api/admin/invite': async (req, body) => {
      await admin(req);
      const p = InviteParams.parse(body);
      return d.hub.invite(p.machine, p.ttlMinutes ? p.ttlMinutes * 60_000 : undefined, p.owner);
    },
    'GET /api/admin/machines': async (req) => {
      await admin(req);
      return { machines: await d.hub.machines() };
    },
    'POST /api/admin/revoke': async (req, body) => {
      await admin(req);
      await d.hub.revoke(RevokeParams.parse(body).machine);
      return { ok: true };
    },
    'POST /api/admin/people': async (req, body) => {
      await admin(req);
      const p = PersonParams.parse(body);
      if (p.token !== true)
        await d.checkSignInLink?.({ role: p.role, bootstrap: p.bootstrap === true });
      return d.hub.addPerson(p.name, p.role, { personal: p.token === true });
    },
    'POST /api/admin/people/link': async (req, body) => {
      await admin(req);
      const p = LinkParams.parse(body);
      await d.checkSignInLink?.({ person: p.name, bootstrap: p.bootstrap === true });
      return d.hub.newSignInLink(p.name);
    },
    'GET /api/requests': async (req) => {
      await person(req);
      const url = new URL(req.url ?? '/', 'http://hub');
      const machine = url.searchParams.get('machine');
      return {
        requests: await d.hub.requests({
          waiting: url.searchParams.get('waiting') === '1',
          ...(machine ? { machine: MachineName.parse(machine) } : {}),
        }),
      };
    },
    'POST /api/decide': async (req, body) => {
      const who = await person(req);
      const o = await d.hub.decide(who, DecideParams.parse(body), 'cli');
      return {
        ...(o.decisionId ? { decisionId: o.decisionId } : {}),
        person: o.person,
        decided: o.decided,
        ...(o.approvals !== undefined ? { approvals: o.approvals, needed: o.needed } : {}),
      };
    },
  };

  const bearer = (req: IncomingMessage): string | undefined =>
    /^Bearer (\S{1,512})$/.exec(req.headers.authorization ?? '')?.[1];
  async function admin(req: IncomingMessage): Promise<void> {
    const token = bearer(req);
    if (!token || !(await d.isAdminToken(token)))
      throw new HubRefusal(401, 'the hub admin token is required');
  }
  async function person(req: IncomingMessage): Promise<Person> {
    const token = bearer(req);
    const who = token ? await d.hub.personByToken(token) : undefined;
    if (!who)
      throw new HubRefusal(
        401,
        'a personal token is required (gatehouse hub user add NAME --role approver)',
      );
    return who;
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://hub').pathname;
    const route = routes[`${req.method} ${path}`];
    if (!route && d.web && (await d.web(req, res, path))) return;
    try {
      if (!route) throw new HubRefusal(404, `no such endpoint: ${req.method} ${path}`);
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      reply(res, 200, await route(req, body));
    } catch (error) {
      if (error instanceof HubRefusal)
        reply(res, error.status, { error: error.message, ...error.details });
      else if (error instanceof z.ZodError)
        reply(res, 400, {
          error: 'invalid input',
          issues: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      else {
        console.error('gatehouse hub: request failed:', error);
        reply(res, 500, { error: 'the hub failed; see its log' });
      }
    }
  };
}

/** Answers JSON, never cached (the team dashboard's routes answer the same way). */
export function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The request's JSON body, at most 64 KiB; a refusal (400) when it is not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
    throw new HubRefusal(400, 'send JSON (content-type: application/json)');
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HubRefusal(400, 'the body is too large');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HubRefusal(400, 'the body is not JSON');
  }
}
