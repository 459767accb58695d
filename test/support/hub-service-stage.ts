import type { IncomingMessage } from 'node:http';
import { HubService } from '../../main/hub/hub-service';
import { personNotifyRoutes } from '../../main/hub/hub-person-notify-api';
import { ensureHubIdentity } from '../../main/hub/store/identity-repo';
import type { SqlDatabase } from '../../main/hub/store/sql';
import type { RequestRecord } from '../../shared/domain';
import type { PersonRole } from '../../shared/hub-protocol';
import { generateEd25519, type Ed25519Pair } from '../../shared/node/hub-keys';
import { FakeClock } from './fake-clock';

/**
 * A request waiting for a person on a machine, as the machine publishes it to the hub
 * (`request.asked`), asked at `at` under the default rule of its action.
 */
export function pendingRecord(
  o: Pick<RequestRecord, 'requestId' | 'agent' | 'action' | 'description'> &
    Partial<RequestRecord> & { at: number },
): RequestRecord {
  const { at, ...given } = o;
  return {
    sessionId: 's1',
    urgency: 'normal',
    status: 'pending',
    tier: 'ask',
    rule: `default:${o.action}`,
    ruleReason: 'asks',
    createdAt: new Date(at).toISOString(),
    ...given,
  };
}

/**
 * A shell request {@link pendingRecord}: `run <id>` by claude-code, asked at `at`; `over`
 * changes any field.
 */
export function shellRequest(
  id: string,
  at: number,
  over: Partial<RequestRecord> = {},
): RequestRecord {
  return pendingRecord({
    requestId: id,
    agent: 'claude-code',
    action: 'shell',
    description: `run ${id}`,
    at,
    ...over,
  });
}

/**
 * The hub's service over one of its databases (test/support/hub-databases.ts), as a replica
 * builds it, with its signing identity and a fake clock; people and machines added through it
 * as the admin's commands add them.
 */
export class HubServiceStage {
  private constructor(
    readonly db: SqlDatabase,
    readonly clock: FakeClock,
    readonly identity: Ed25519Pair,
    readonly hub: HubService,
  ) {}

  static async on(db: SqlDatabase, clock = new FakeClock()): Promise<HubServiceStage> {
    const identity = await ensureHubIdentity(db, generateEd25519, clock.now());
    return new HubServiceStage(db, clock, identity, new HubService({ db, clock, identity }));
  }

  /** Adds a person with a personal token: the token and the person's id. */
  async person(
    name: string,
    role: PersonRole = 'approver',
  ): Promise<{ token: string; personId: string }> {
    const { token } = await this.hub.addPerson(name, role, { personal: true });
    const person = await this.hub.personByToken(token);
    if (!person) throw new Error(`${name}'s token names no one`);
    return { token, personId: person.personId };
  }

  /** Joins a machine (a fresh key) through an invite naming its owner: the machine's id. */
  async machine(name: string, owner?: string): Promise<string> {
    const { code } = await this.hub.invite(name, undefined, owner);
    return (await this.hub.join({ code, publicKey: generateEd25519().publicKey })).machineId;
  }

  /** A person's own notification choices, sent with their token as `POST /api/me/notify`. */
  setNotify(token: string, body: unknown): Promise<unknown> {
    const route = personNotifyRoutes({ db: this.db, hub: this.hub, clock: this.clock })[
      'POST /api/me/notify'
    ];
    if (!route) throw new Error('the hub has no POST /api/me/notify');
    return route({ headers: { authorization: `Bearer ${token}` } } as IncomingMessage, body);
  }
}
