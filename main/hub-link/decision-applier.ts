import {
  decisionText,
  HubDecision,
  hubDecisionChannel,
  type HubDecisionTerms,
} from '../../shared/hub-protocol';
import { verifyText } from '../../shared/node/hub-keys';
import type { DecisionScope, RequestRecord, RuleDraft } from '../../shared/domain';
import type { RuleOffer } from '../../shared/hub-rule-offers';
import { maskSecrets } from '../../shared/request-picture/mask-secrets';
import type { HubOutboxRepository } from '../store/hub-outbox-repository';

/** What the applier needs of the daemon: its clock, one request, the decision path, the audit. */
export interface HubDecisionPort {
  now(): number;
  getRequest(requestId: string): RequestRecord | undefined;
  /** The same path as a local decision (the admin service's `decide`), recorded `hub:<person>`. */
  decide(
    p: {
      requestId: string;
      decision: 'approve' | 'deny';
      scope: DecisionScope;
      via: `hub:${string}`;
      reason?: string;
      /** The rule to remember: always one of {@link ruleOffers}, never one the hub sent. */
      rule?: RuleDraft;
    } & Omit<HubDecisionTerms, 'ruleOffer'>,
  ): Promise<void>;
  /** The rules this machine offers for a request now: its own preview, computed again. */
  ruleOffers(requestId: string): RuleOffer[] | undefined;
  audit(type: string, fields: { requestId?: string; data: Record<string, unknown> }): Promise<void>;
}

export interface AppliedAnswer {
  decisionId: string;
  outcome: 'applied' | 'refused';
  detail?: string;
}

/**
 * Checks and applies a decision the hub sent: the signature against the hub key pinned at
 * join, the machine it is for, its expiry, and that the request is one this machine
 * published. A decision is applied at most once: its id is recorded with the outcome, and the
 * same decision again is answered as before and changes nothing. Every refusal is audited.
 * Returns the answer for the hub, or undefined for a message too broken to answer.
 */
export class HubDecisionApplier {
  constructor(
    private readonly d: {
      port: HubDecisionPort;
      outbox: HubOutboxRepository;
      hubPublicKey: string;
      machineId: string;
    },
  ) {}

  async apply(payload: string, sig: string): Promise<AppliedAnswer | undefined> {
    if (!verifyText(this.d.hubPublicKey, decisionText(payload), sig)) {
      await this.refuse('bad_signature', undefined, {});
      return undefined;
    }
    let decision: HubDecision;
    let raw: unknown;
    try {
      raw = JSON.parse(payload);
      decision = HubDecision.parse(raw);
    } catch {
      await this.refuse('invalid', undefined, {});
      return undefined;
    }
    // The detail goes to the hub: an engine's refusal may quote the call, so it is masked as
    // the hub's copy of the request is (shared/hub-copy.ts), and bounded as the hub reads it.
    const answer = (outcome: 'applied' | 'refused', detail?: string): AppliedAnswer => ({
      decisionId: decision.decisionId,
      outcome,
      ...(detail ? { detail: maskSecrets(detail).slice(0, 2000) } : {}),
    });
    const before = this.d.outbox.decision(decision.decisionId);
    if (before) {
      // Sent again (a lost answer, a reconnect): answered as before, never applied twice.
      await this.d.port.audit('hub.decision_repeated', {
        requestId: decision.requestId,
        data: { decisionId: decision.decisionId, outcome: before.outcome },
      });
      return answer(before.outcome, before.detail);
    }
    const refuse = async (reason: string, detail: string): Promise<AppliedAnswer> => {
      await this.refuse(reason, decision, { detail });
      this.d.outbox.recordDecision(
        {
          decisionId: decision.decisionId,
          requestId: decision.requestId,
          outcome: 'refused',
          detail,
        },
        this.d.port.now(),
      );
      return answer('refused', detail);
    };
    if (decision.machineId !== this.d.machineId)
      return refuse('other_machine', 'the decision is for another machine');
    if (decision.expiresAt <= this.d.port.now()) return refuse('expired', 'the decision expired');
    const request = this.d.port.getRequest(decision.requestId);
    if (!request || !this.d.outbox.published(decision.requestId))
      return refuse('unknown_request', 'this machine published no such request');
    if (request.status !== 'pending' && request.status !== 'timed_out')
      return refuse(
        'already_decided',
        `already ${request.status}${request.decidedVia ? ` via ${request.decidedVia}` : request.decidedBy ? ` by ${request.decidedBy}` : ''}`,
      );
    // A rule's text from the hub is never applied (the schema would drop it unseen): a
    // decision that carries one is refused, so whoever sent it learns it did nothing.
    if (carriesRuleText(raw))
      return refuse(
        'rule_not_offered',
        'the decision carries a rule; this machine applies only a rule it offered, named by its id',
      );
    const { ruleOffer, ...terms } = decision.terms ?? {};
    let rule: RuleDraft | undefined;
    if (ruleOffer !== undefined) {
      // Looked up in the preview computed again now, from the machine's own request.
      rule = this.d.port.ruleOffers(decision.requestId)?.find((o) => o.id === ruleOffer)?.draft;
      if (!rule)
        return refuse(
          'rule_not_offered',
          `rule ${ruleOffer} is not one this machine offered for request ${decision.requestId}`,
        );
    }
    try {
      await this.d.port.decide({
        requestId: decision.requestId,
        decision: decision.decision,
        scope: decision.scope ?? 'once',
        via: hubDecisionChannel(decision.person),
        ...(decision.reason ? { reason: decision.reason } : {}),
        // What a person approved with the call (an envelope, the offered rule, an edited
        // call …): the engine checks each as it does a local approval's, and refuses what
        // does not fit.
        ...terms,
        ...(rule ? { rule } : {}),
      });
    } catch (error) {
      // Decided here meanwhile, or the agent is paused: the engine's own refusal, passed on.
      return refuse('engine_refused', error instanceof Error ? error.message : String(error));
    }
    this.d.outbox.recordDecision(
      { decisionId: decision.decisionId, requestId: decision.requestId, outcome: 'applied' },
      this.d.port.now(),
    );
    if (decision.approvals)
      // The team's quorum behind the decision: each approval (person, channel, time), as signed.
      await this.d.port.audit('hub.quorum_decision', {
        requestId: decision.requestId,
        data: {
          decisionId: decision.decisionId,
          decision: decision.decision,
          person: decision.person,
          ...(decision.rule ? { rule: decision.rule } : {}),
          approvals: decision.approvals,
        },
      });
    return answer('applied');
  }

  private async refuse(
    reason: string,
    decision: HubDecision | undefined,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.d.port.audit('hub.decision_refused', {
      ...(decision ? { requestId: decision.requestId } : {}),
      data: {
        reason,
        ...(decision
          ? {
              decisionId: decision.decisionId,
              person: decision.person,
              machineId: decision.machineId,
            }
          : {}),
        ...data,
      },
    });
  }
}

/** True when a decision's JSON names a rule by its text (`terms.rule`) rather than an offer. */
function carriesRuleText(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null || !('terms' in raw)) return false;
  const terms = (raw as { terms: unknown }).terms;
  return typeof terms === 'object' && terms !== null && 'rule' in terms;
}
