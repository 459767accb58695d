import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Clock } from '../../shared/clock';
import { MachineName } from '../../shared/hub-protocol';
import { hashSecret, HubRefusal, type HubService } from './hub-service';
import { appendAudit } from './store/audit-repo';
import { machineByName } from './store/machines-repo';
import type { Person } from './store/people-repo';
import { saveToken } from './store/people-repo';
import { hubRequestPage, hubRequestsById } from './store/request-pages-repo';
import type { HubRequest } from './store/requests-repo';
import { spendSignInToken } from './store/sign-in-repo';
import type { SqlDatabase } from './store/sql';

/** A route of the hub's HTTP API: the request (for its headers and query) and the parsed body. */
export type HubRoute = (req: IncomingMessage, body: unknown) => Promise<unknown>;

const PageQuery = z.object({
  waiting: z.enum(['0', '1']).default('0'),
  agent: z.string().min(1).max(200).optional(),
  machine: MachineName.optional(),
  connected: z.enum(['0', '1']).optional(),
  limit: z.coerce.number().int().positive().max(500).default(50),
  cursor: z.string().min(1).max(1024).optional(),
});
const OneQuery = z.object({ id: z.string().min(1).max(128), machine: MachineName.optional() });
const LoginParams = z.object({ code: z.string().min(16).max(256) });

/**
 * What a person's CLI sees of a request: the machine's record, which machine asked, and the
 * rules that machine offers for a session or "always" approval.
 */
const view = (r: HubRequest) => ({
  machine: r.machineName,
  request: r.record,
  ...(r.offers ? { offers: r.offers } : {}),
});

/** The bearer credential of a call, if it has one of sane shape. */
export const bearerOf = (req: IncomingMessage): string | undefined =>
  /^Bearer (\S{1,512})$/.exec(req.headers.authorization ?? '')?.[1];

/**
 * The API a person's CLI uses (`gatehouse --hub URL list|show|approve|deny|review`, and
 * `gatehouse hub login`): who the token belongs to, pages of the team's requests, one request
 * by id, and the exchange of a sign-in link's code for a personal token. Reading needs any
 * person's token; deciding stays `POST /api/decide` (approvers and admins).
 */
export function personApiRoutes(d: {
  db: SqlDatabase;
  hub: HubService;
  clock: Clock;
}): Record<string, HubRoute> {
  async function person(req: IncomingMessage): Promise<Person> {
    const token = bearerOf(req);
    const who = token ? await d.hub.personByToken(token) : undefined;
    if (!who) throw new HubRefusal(401, 'a personal token is required (gatehouse hub login URL)');
    return who;
  }
  const query = (req: IncomingMessage): Record<string, string> =>
    Object.fromEntries(new URL(req.url ?? '/', 'http://hub').searchParams);
  async function machineId(name: string | undefined): Promise<string | undefined> {
    if (!name) return undefined;
    const machine = await machineByName(d.db, name);
    if (!machine) throw new HubRefusal(404, `no machine named ${name}`);
    return machine.machineId;
  }

  return {
    'GET /api/me': async (req) => {
      const who = await person(req);
      return { name: who.name, role: who.role };
    },
    'GET /api/requests/page': async (req) => {
      await person(req);
      const q = PageQuery.parse(query(req));
      const id = await machineId(q.machine);
      const page = await hubRequestPage(d.db, {
        waiting: q.waiting === '1',
        ...(q.agent ? { agent: q.agent } : {}),
        ...(id ? { machineId: id } : {}),
        ...(q.connected ? { connected: q.connected === '1' } : {}),
        limit: q.limit,
        ...(q.cursor ? { cursor: q.cursor } : {}),
        now: d.clock.now(),
      });
      return {
        requests: page.requests.map(view),
        total: page.total,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },
    'GET /api/requests/one': async (req) => {
      await person(req);
      const q = OneQuery.parse(query(req));
      const found = (await hubRequestsById(d.db, q.id)).filter(
        (r) => !q.machine || r.machineName === q.machine,
      );
      if (found.length === 0) throw new HubRefusal(404, `request ${q.id} not found on the hub`);
      if (found.length > 1)
        throw new HubRefusal(
          409,
          `request ${q.id} is on several machines (${found.map((r) => r.machineName).join(', ')}): name one`,
        );
      return view(found[0]!);
    },
    'POST /api/login': async (_req, body) => {
      const { code } = LoginParams.parse(body);
      const now = d.clock.now();
      const token = `ghp_${randomBytes(24).toString('base64url')}`;
      const outcome = await d.db.transaction(async (tx) => {
        const spent = await spendSignInToken(tx, hashSecret(code), now);
        await appendAudit(tx, now, {
          type: spent.ok ? 'person.signed_in' : 'person.sign_in_refused',
          ...(spent.ok ? { actor: spent.person.name } : {}),
          data: spent.ok ? { via: 'cli' } : { via: 'cli', reason: spent.reason },
        });
        if (spent.ok)
          await saveToken(tx, {
            tokenHash: hashSecret(token),
            personId: spent.person.personId,
            kind: 'personal',
            now,
          });
        return spent;
      });
      // The refusal is audited (its transaction committed), then reported.
      if (!outcome.ok)
        throw new HubRefusal(
          403,
          `the sign-in code is ${outcome.reason === 'unknown' ? 'not known' : outcome.reason}`,
        );
      return { token, name: outcome.person.name, role: outcome.person.role };
    },
  };
}
