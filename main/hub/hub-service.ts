import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/clock';
import {
  decisionText,
  HubDecision,
  type HubDecisionTerms,
  type JoinResult,
  type OutboxEntry,
  type PersonRole,
} from '../../shared/hub-protocol';
import { signText, type Ed25519Pair } from '../../shared/node/hub-keys';
import { isWaitingForYou, type DecisionScope } from '../../shared/domain';
import type { HubApproval } from '../../shared/provenance';
import { appendAudit, appendAudits, type HubAuditEntry } from './store/audit-repo';
import { answerDecision, decisionFor, getDecision, insertDecision } from './store/decisions-repo';
import {
  listMachines,
  machineByName,
  registerMachine,
  revokeMachine,
  saveJoinCode,
  spendJoinCode,
  type MachineRow,
} from './store/machines-repo';
import {
  addPerson,
  personByName,
  personByToken,
  saveToken,
  type Person,
} from './store/people-repo';
import {
  getHubRequest,
  listHubRequests,
  storePublished,
  type HubRequestQuery,
} from './store/requests-repo';
import { chosenOffer } from './rule-offer-choice';
import { HubRefusal } from './hub-refusal';
import { listPeople, type PersonListing } from './store/sessions-repo';
import type { Sql, SqlDatabase } from './store/sql';
import { HUB_CHANNEL, type HubNotice } from './hub-events';
import type { PublishedNotices } from './published-notices';
import { approvalsOf, castVote, ruleFor, whyNot } from './quorum';
import { clearVotes } from './store/votes-repo';

/** What a person's vote did: decided the request (sent to its machine), or counted toward a quorum. */
export interface DecideOutcome {
  person: string;
  decision: 'approve' | 'deny';
  decided: boolean;
  decisionId?: string;
  /** Under a team rule: approvals so far, and how many it needs. */
  approvals?: number;
  needed?: number;
}

/** How long a join code may wait for its machine, by default. */
export const JOIN_CODE_TTL_MS = 60 * 60_000;
/** How long a machine accepts a hub decision after it was made. */
const DECISION_TTL_MS = 24 * 60 * 60_000;
/** How long a sign-in link printed by `gatehouse hub user add` stays valid. */
export const SIGN_IN_TTL_MS = 24 * 60 * 60_000;

export { HubRefusal };

export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret).digest('hex');
/**
 * A new random secret (192 bits, base64url) that never starts with `-`: join codes and sign-in
 * codes are typed as command-line arguments, where a leading `-` reads as an option (one
 * secret in 64 would).
 */
export function freshSecret(): string {
  for (;;) {
    const secret = randomBytes(24).toString('base64url');
    if (!secret.startsWith('-')) return secret;
  }
}

const notify = (sql: Sql, notice: HubNotice) =>
  sql.query('SELECT pg_notify($1, $2)', [HUB_CHANNEL, JSON.stringify(notice)]);

/**
 * What the hub does, over its database: every change is one transaction with its audit entry
 * (and its notice to the other replicas). Stateless: any replica can serve any call.
 */
export class HubService {
  constructor(
    private readonly d: {
      db: SqlDatabase;
      clock: Clock;
      identity: Ed25519Pair;
      /** Gathers the publishes' notice (the hub's); without it each publish sends its own. */
      published?: PublishedNotices;
    },
  ) {}

  get publicKey(): string {
    return this.d.identity.publicKey;
  }

  async invite(
    machineName: string,
    ttlMs = JOIN_CODE_TTL_MS,
    owner?: string,
  ): Promise<{ code: string; expiresAt: number }> {
    const now = this.d.clock.now();
    const code = freshSecret();
    await this.d.db.transaction(async (tx) => {
      if (owner !== undefined && !(await personByName(tx, owner)))
        throw new HubRefusal(404, `no person named ${owner}`);
      await saveJoinCode(tx, {
        codeHash: hashSecret(code),
        machineName,
        now,
        expiresAt: now + ttlMs,
        ...(owner !== undefined ? { owner } : {}),
      });
      await appendAudit(tx, now, {
        type: 'machine.invited',
        actor: 'admin',
        data: { machine: machineName, ...(owner !== undefined ? { owner } : {}) },
      });
    });
    return { code, expiresAt: now + ttlMs };
  }

  /** A machine redeems its join code with its public key; the code is spent whatever follows. */
  async join(p: {
    code: string;
    publicKey: string;
    version?: string | undefined;
  }): Promise<JoinResult> {
    const now = this.d.clock.now();
    const outcome = await this.d.db.transaction(async (tx) => {
      const spent = await spendJoinCode(tx, hashSecret(p.code), now);
      if (!spent.ok) {
        await appendAudit(tx, now, {
          type: 'machine.join_refused',
          data: { reason: spent.reason },
        });
        return spent;
      }
      const machine = await registerMachine(tx, {
        machineId: randomUUID(),
        name: spent.machineName,
        publicKey: p.publicKey,
        now,
        ...(p.version ? { version: p.version } : {}),
        ...(spent.owner ? { owner: spent.owner } : {}),
      });
      await appendAudit(tx, now, {
        type: 'machine.joined',
        actor: machine.name,
        machineId: machine.machineId,
        data: { version: p.version ?? null },
      });
      return { ok: true as const, machine };
    });
    // Audited in its own transaction above: the refusal is kept, then reported.
    if (!outcome.ok)
      throw new HubRefusal(
        403,
        `the join code is ${outcome.reason === 'unknown' ? 'not known' : outcome.reason}`,
      );
    return {
      machineId: outcome.machine.machineId,
      machineName: outcome.machine.name,
      hubPublicKey: this.publicKey,
    };
  }

  machines(): Promise<MachineRow[]> {
    return listMachines(this.d.db);
  }

  async revoke(name: string, actor = 'admin'): Promise<void> {
    const now = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      const machine = await machineByName(tx, name);
      if (!machine) throw new HubRefusal(404, `no machine named ${name}`);
      if (!(await revokeMachine(tx, machine.machineId, now))) return;
      await appendAudit(tx, now, {
        type: 'machine.revoked',
        actor,
        machineId: machine.machineId,
      });
      await notify(tx, { kind: 'revoked', machineId: machine.machineId });
    });
  }

  /**
   * Adds a person. By default they get a single-use sign-in link's token for the team
   * dashboard (it expires); with `personal`, a personal token for the CLI instead. Either is
   * shown once and kept by its hash.
   */
  async addPerson(
    name: string,
    role: PersonRole,
    o: { personal?: boolean; actor?: string } = {},
  ): Promise<{ token: string; kind: 'sign_in' | 'personal'; expiresAt?: number }> {
    const now = this.d.clock.now();
    const kind = o.personal ? ('personal' as const) : ('sign_in' as const);
    const token = o.personal ? `ghp_${freshSecret()}` : freshSecret();
    const expiresAt = o.personal ? undefined : now + SIGN_IN_TTL_MS;
    await this.d.db.transaction(async (tx) => {
      if (await personByName(tx, name)) throw new HubRefusal(409, `a person named ${name} exists`);
      const personId = randomUUID();
      await addPerson(tx, { personId, name, role, now });
      await saveToken(tx, {
        tokenHash: hashSecret(token),
        personId,
        kind,
        now,
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      });
      await appendAudit(tx, now, {
        type: 'person.added',
        actor: o.actor ?? 'admin',
        data: { name, role, credential: kind },
      });
    });
    return { token, kind, ...(expiresAt !== undefined ? { expiresAt } : {}) };
  }

  /**
   * A new single-use sign-in link's token for someone already on the hub (a new browser, or
   * after signing out). Their other sessions and links stay as they are.
   */
  async newSignInLink(
    name: string,
    actor = 'admin',
  ): Promise<{ token: string; expiresAt: number }> {
    const now = this.d.clock.now();
    const token = freshSecret();
    const expiresAt = now + SIGN_IN_TTL_MS;
    await this.d.db.transaction(async (tx) => {
      const person = await personByName(tx, name);
      if (!person) throw new HubRefusal(404, `no person named ${name}`);
      await saveToken(tx, {
        tokenHash: hashSecret(token),
        personId: person.personId,
        kind: 'sign_in',
        now,
        expiresAt,
      });
      await appendAudit(tx, now, { type: 'person.sign_in_link', actor, data: { name } });
    });
    return { token, expiresAt };
  }

  people(): Promise<PersonListing[]> {
    return listPeople(this.d.db);
  }

  personByToken(token: string): Promise<Person | undefined> {
    return personByToken(this.d.db, hashSecret(token), this.d.clock.now());
  }

  async requests(
    o: Omit<HubRequestQuery, 'machineId'> & { machine?: string } = {},
  ): Promise<Awaited<ReturnType<typeof listHubRequests>>> {
    const { machine, ...query } = o;
    const machineId = machine ? (await machineByName(this.d.db, machine))?.machineId : undefined;
    if (machine && !machineId) throw new HubRefusal(404, `no machine named ${machine}`);
    return listHubRequests(this.d.db, {
      ...query,
      ...(machineId ? { machineId } : {}),
      now: this.d.clock.now(),
    });
  }

  /** One request a machine published, with its standing hub decision. */
  async request(machine: string, requestId: string) {
    const machineId = (await machineByName(this.d.db, machine))?.machineId;
    if (!machineId) throw new HubRefusal(404, `no machine named ${machine}`);
    const [found] = await listHubRequests(this.d.db, { machineId, requestId, limit: 1 });
    return found;
  }

  /**
   * A person decides a request a machine published. The first decision wins: a request
   * decided on its machine, or on the hub before, is refused with who decided and how. The
   * decision is signed with the hub's key and reaches the machine's link on whichever replica
   * holds it (NOTIFY).
   *
   * Under a team rule (decision-rules), only members of its groups may decide, each person's
   * vote is recorded once, one denial denies, and the decision is made only when the
   * approvals reach the rule's quorum; until then the machine hears the count. The request's
   * row is locked for the whole transaction, so votes on one request count one at a time
   * across replicas, and exactly one decision is made.
   */
  async decide(
    person: Person,
    p: {
      machine: string;
      requestId: string;
      decision: 'approve' | 'deny';
      scope?: DecisionScope | undefined;
      reason?: string | undefined;
      /** An approval's envelope, message, conditions, rule or edited call. */
      terms?: HubDecisionTerms | undefined;
    },
    channel: 'dashboard' | 'cli' = 'cli',
  ): Promise<DecideOutcome> {
    let terms = p.terms && Object.keys(p.terms).length > 0 ? p.terms : undefined;
    if (terms && p.decision !== 'approve')
      throw new HubRefusal(400, 'a deny carries a reason only, no approval terms');
    if (person.role === 'viewer')
      throw new HubRefusal(403, `${person.name} is a viewer and cannot decide`);
    const now = this.d.clock.now();
    return this.d.db.transaction(async (tx) => {
      const machine = await machineByName(tx, p.machine);
      if (!machine) throw new HubRefusal(404, `no machine named ${p.machine}`);
      if (machine.revokedAt !== undefined)
        throw new HubRefusal(409, `machine ${p.machine} is revoked`);
      const request = await getHubRequest(tx, machine.machineId, p.requestId, { lock: true });
      if (!request)
        throw new HubRefusal(404, `machine ${p.machine} published no request ${p.requestId}`);
      const governed = await ruleFor(tx, request);
      if (governed) {
        const why = await whyNot(tx, person, governed, machine);
        if (why) throw new HubRefusal(403, why, { readOnly: true, rule: governed.rule.ruleId });
        // Session or always would leave a rule on the machine that lets later calls skip the
        // team's rule; an envelope, a rule or an edit would do the same, or have approvers
        // vote for different calls.
        if (p.scope && p.scope !== 'once')
          throw new HubRefusal(
            400,
            `team rule ${governed.rule.ruleId} governs this request: it is decided once, not for the ${p.scope}`,
          );
        if (terms)
          throw new HubRefusal(
            400,
            `team rule ${governed.rule.ruleId} governs this request: it is approved once as asked, with no terms (${Object.keys(terms).join(', ')})`,
          );
      }
      const offered = chosenOffer(request, p, terms);
      // Session or always names the rule the person saw (the narrowest unless they chose a
      // wider one), so the signed decision says what the machine will write.
      if (offered && terms?.ruleOffer === undefined) terms = { ...terms, ruleOffer: offered.id };
      const earlier = await decisionFor(tx, machine.machineId, p.requestId);
      if (earlier)
        throw new HubRefusal(
          409,
          `request ${p.requestId} was already decided on the hub by ${earlier.person}`,
          {
            decidedVia: `hub:${earlier.person}`,
          },
        );
      if (!isWaitingForYou(request.status))
        throw new HubRefusal(
          409,
          `request ${p.requestId} is already ${request.status}${request.record.decidedVia ? ` via ${request.record.decidedVia}` : ''}`,
          {
            status: request.status,
            ...(request.record.decidedVia ? { decidedVia: request.record.decidedVia } : {}),
          },
        );
      const audits: Omit<HubAuditEntry, 'seq' | 'at'>[] = [];
      let quorum: { approvals: HubApproval[]; rule: string } | undefined;
      if (governed) {
        const { rule } = governed;
        const cast = await castVote(tx, {
          request,
          governed,
          machine,
          person,
          vote: p.decision,
          channel,
          now,
        });
        const count = { approvals: cast.state.approvals, needed: cast.state.needed };
        if (!cast.recorded)
          throw new HubRefusal(
            409,
            `${person.name} already voted on request ${p.requestId}; a person counts once (${count.approvals} of ${count.needed} approvals)`,
            count,
          );
        // Audited last in the transaction, as the hub's chain asks.
        audits.push({
          type: 'decision.vote',
          actor: person.name,
          machineId: machine.machineId,
          requestId: p.requestId,
          data: { vote: p.decision, via: channel, rule: rule.ruleId, ...count },
        });
        if (!cast.state.denied && cast.state.approvals < cast.state.needed) {
          await appendAudits(tx, now, audits);
          await notify(tx, {
            kind: 'quorum',
            machineId: machine.machineId,
            requestId: p.requestId,
            ...count,
          });
          return { person: person.name, decision: p.decision, decided: false, ...count };
        }
        quorum = { approvals: approvalsOf(cast.state.votes), rule: rule.ruleId };
      }
      const decision: HubDecision = HubDecision.parse({
        v: terms ? 2 : 1,
        decisionId: randomUUID(),
        machineId: machine.machineId,
        requestId: p.requestId,
        decision: p.decision,
        // Once is what a decision without a scope means on the machine: left out, so the
        // signed text of a plain decision stays what older machines check.
        ...(p.scope && p.scope !== 'once' ? { scope: p.scope } : {}),
        ...(p.reason ? { reason: p.reason } : {}),
        ...(terms ? { terms } : {}),
        person: person.name,
        ...(quorum ?? {}),
        issuedAt: now,
        expiresAt: now + DECISION_TTL_MS,
      });
      const payload = JSON.stringify(decision);
      const row = {
        decisionId: decision.decisionId,
        machineId: machine.machineId,
        requestId: p.requestId,
        person: person.name,
        payload,
        signature: signText(this.d.identity.privateKeyPem, decisionText(payload)),
        createdAt: now,
      };
      await insertDecision(tx, row);
      audits.push({
        type: 'decision.made',
        actor: person.name,
        machineId: machine.machineId,
        requestId: p.requestId,
        data: {
          decision: p.decision,
          scope: p.scope ?? 'once',
          ...(terms ? { terms: Object.keys(terms) } : {}),
          ...(offered ? { rule: offered.describe } : {}),
          decisionId: decision.decisionId,
          ...(quorum ?? {}),
        },
      });
      await appendAudits(tx, now, audits);
      await notify(tx, {
        kind: 'decision',
        machineId: machine.machineId,
        decisionId: decision.decisionId,
      });
      return {
        person: person.name,
        decision: p.decision,
        decided: true,
        decisionId: row.decisionId,
        ...(quorum && governed
          ? { approvals: quorum.approvals.length, needed: governed.rule.approvals }
          : {}),
      };
    });
  }

  /** Stores a machine's published entries; returns the sequence number to acknowledge. */
  async publish(machineId: string, entries: readonly OutboxEntry[]): Promise<number> {
    const gathered = this.d.published;
    const acknowledged = await this.d.db.transaction(async (tx) => {
      const seq = await storePublished(tx, machineId, entries, this.d.clock.now());
      // The team dashboards on every replica reload what they show (a replay stored nothing
      // new, but a notice too many only costs a reload).
      if (entries.length > 0 && !gathered) await notify(tx, { kind: 'published', machineId });
      return seq;
    });
    if (entries.length > 0) gathered?.mark();
    return acknowledged;
  }

  /** The machine's answer to a decision: applied, or refused and why (audited either way). */
  async answered(
    machineId: string,
    a: { decisionId: string; outcome: 'applied' | 'refused'; detail?: string | undefined },
  ): Promise<void> {
    const now = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      const first = await answerDecision(tx, { ...a, machineId, now });
      if (!first) return;
      // A decision the machine refused no longer stands: its votes go with it, so the team votes again.
      if (a.outcome === 'refused') {
        const decision = await getDecision(tx, a.decisionId);
        if (decision) await clearVotes(tx, machineId, decision.requestId);
      }
      await appendAudit(tx, now, {
        type: a.outcome === 'applied' ? 'decision.applied' : 'decision.refused_by_machine',
        machineId,
        data: { decisionId: a.decisionId, ...(a.detail ? { detail: a.detail } : {}) },
      });
    });
  }
}
