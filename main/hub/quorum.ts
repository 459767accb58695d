import {
  governingRule,
  type DecisionRule,
  type RuleSubject,
} from '../../shared/hub-decision-rules';
import type { HubApproval } from '../../shared/provenance';
import { getHubRequest, type HubRequest } from './store/requests-repo';
import { listDecisionRules } from './store/decision-rules-repo';
import { escalationOf } from './store/escalations-repo';
import { groupsOf } from './store/groups-repo';
import { getMachine, type MachineRow } from './store/machines-repo';
import type { Person } from './store/people-repo';
import type { Sql } from './store/sql';
import { recordVote, requestsWithOpenVotes, votesOn, type RequestVote } from './store/votes-repo';

/** What a rule is matched against, read from a published request. */
export const subjectOf = (r: HubRequest): RuleSubject => ({
  machine: r.machineName,
  action: r.record.action,
  agent: r.record.agent,
  project: r.record.project,
  risk: r.record.risk,
});

/** The rule that governs a request, and the groups that may decide it now (escalation adds one). */
export async function ruleFor(
  sql: Sql,
  request: HubRequest,
  /** The rules, when the caller read them once for many requests. */
  rules?: readonly DecisionRule[],
): Promise<{ rule: DecisionRule; groups: string[] } | undefined> {
  const rule = governingRule(rules ?? (await listDecisionRules(sql)), subjectOf(request));
  if (!rule) return undefined;
  const escalated = await escalationOf(sql, request.machineId, request.requestId);
  return { rule, groups: escalated ? [...rule.groups, escalated.toGroup] : [...rule.groups] };
}

/** Why this person may not decide under this rule, or undefined when they may. */
export async function whyNot(
  sql: Sql,
  person: Person,
  governed: { rule: DecisionRule; groups: string[] },
  machine: Pick<MachineRow, 'name' | 'owner'>,
): Promise<string | undefined> {
  if (person.role === 'viewer') return `${person.name} is a viewer and cannot decide`;
  const mine = await groupsOf(sql, person.personId);
  if (!governed.groups.some((g) => mine.includes(g)))
    return `only ${governed.groups.join(' or ')} may decide this request (team rule ${governed.rule.ruleId}); ${person.name} is not in ${governed.groups.length > 1 ? 'any of them' : 'it'}`;
  if (governed.rule.excludeOwner && machine.owner === person.name)
    return `${person.name} owns machine ${machine.name}, and team rule ${governed.rule.ruleId} leaves the owner out`;
  return undefined;
}

export const approvalsOf = (votes: readonly RequestVote[]): HubApproval[] =>
  votes
    .filter((v) => v.vote === 'approve')
    .map((v) => ({
      person: v.person,
      via: v.channel === 'dashboard' ? 'dashboard' : 'cli',
      at: v.at,
    }));

/** The state of a request's votes: approvals so far, needed, and whether a denial settled it. */
export interface QuorumState {
  approvals: number;
  needed: number;
  denied: boolean;
  votes: RequestVote[];
}

/**
 * The votes that count now: those of people who may still decide under the governing rule
 * (in one of its groups, and not the owner it leaves out). A vote of someone taken out of the
 * group since, or cast under a rule a stricter one has replaced, no longer counts.
 */
export async function quorumState(
  sql: Sql,
  request: Pick<HubRequest, 'machineId' | 'requestId'>,
  governed: { rule: DecisionRule; groups: string[] },
  machine: Pick<MachineRow, 'owner'>,
): Promise<QuorumState> {
  const votes: RequestVote[] = [];
  for (const v of await votesOn(sql, request.machineId, request.requestId)) {
    const groups = await groupsOf(sql, v.personId);
    const owner = governed.rule.excludeOwner && machine.owner === v.person;
    if (!owner && governed.groups.some((g) => groups.includes(g))) votes.push(v);
  }
  return {
    approvals: votes.filter((v) => v.vote === 'approve').length,
    needed: governed.rule.approvals,
    denied: votes.some((v) => v.vote === 'deny'),
    votes,
  };
}

/**
 * Records one person's vote on a governed request (in the caller's transaction, which holds
 * the request's row lock, so votes on one request are counted one at a time across replicas).
 * A person votes once: a second vote through any channel is refused with the count so far.
 */
export async function castVote(
  sql: Sql,
  v: {
    request: HubRequest;
    governed: { rule: DecisionRule; groups: string[] };
    machine: Pick<MachineRow, 'owner'>;
    person: Person;
    vote: 'approve' | 'deny';
    channel: string;
    now: number;
  },
): Promise<{ recorded: boolean; state: QuorumState }> {
  const recorded = await recordVote(sql, {
    machineId: v.request.machineId,
    requestId: v.request.requestId,
    personId: v.person.personId,
    person: v.person.name,
    vote: v.vote,
    channel: v.channel,
    ruleId: v.governed.rule.ruleId,
    at: v.now,
  });
  return { recorded, state: await quorumState(sql, v.request, v.governed, v.machine) };
}

/** Where each open quorum of a machine stands, for a machine that links (again). */
export async function openQuorums(
  sql: Sql,
  machineId: string,
): Promise<{ requestId: string; approvals: number; needed: number }[]> {
  const open: { requestId: string; approvals: number; needed: number }[] = [];
  for (const requestId of await requestsWithOpenVotes(sql, machineId)) {
    const request = await getHubRequest(sql, machineId, requestId);
    const governed = request ? await ruleFor(sql, request) : undefined;
    if (!request || !governed) continue;
    const machine = await getMachine(sql, machineId);
    const state = await quorumState(sql, request, governed, machine ?? {});
    if (!state.denied && state.approvals > 0)
      open.push({ requestId, approvals: state.approvals, needed: state.needed });
  }
  return open;
}
