import { createHmac, randomBytes } from 'node:crypto';
import type { InferredUrgency } from '../../shared/request-picture/inferred-urgency';
import type { RequestRecord } from '../../shared/domain';
import { isWaitingForYou } from '../../shared/domain';
import { linkDecisionChannel, type LinkDecision } from '../../shared/remote';
import { isProtectedRule } from '../engine/policy/protected-paths';
import { secretsEqual } from '../../shared/node/secrets-equal';
import type { DecisionLinks } from './decision-links';
import type { DecisionClaims, TokenRefusal } from './decision-token';
import type { LinkEnginePort } from './link-engine-port';
import type { UsedNonces } from './used-nonces';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { confirmedText, editedInputOf, phoneEditOffer, type PhoneEdit } from './phone-edit';

/**
 * Why a link did not decide. `replayed`: its nonce was spent; `bad_form`: a page POST without
 * the page's form token; `not_allowed`: a decision the token does not carry; `unknown_request`:
 * no such request (a token signed for a request that was since pruned).
 */
export type LinkRefusal =
  TokenRefusal | 'replayed' | 'bad_form' | 'not_allowed' | 'unknown_request';

/** How a link reached Gatehouse: the loopback dashboard, the remote listener, a reply topic, a chat app's button. */
export type LinkTransport = 'local' | 'remote' | 'reply-topic' | 'chat';

export type LinkView =
  | {
      kind: 'open';
      request: RequestRecord;
      claims: DecisionClaims;
      /** The decisions the page offers: the token's, less what the request cannot take. */
      decisions: LinkDecision[];
      agentWaiting: boolean;
      /** The urgency Gatehouse infers for the request, with why (when inference is on and applies). */
      inferred?: InferredUrgency;
      /** Goes back with the page's POST: it came from this page (see formTokenFor). */
      formToken: string;
      /** Edit before approving, when the request's agent takes an edited call (phone-edit.ts). */
      edit?: PhoneEdit;
    }
  | { kind: 'decided'; request: RequestRecord; claims: DecisionClaims }
  | { kind: 'refused'; reason: LinkRefusal };

export type LinkOutcome =
  | { kind: 'decided'; request: RequestRecord; byThisLink: boolean }
  | { kind: 'refused'; reason: LinkRefusal };

/** A page POST's outcome: an edit the engine did not approve comes back to the page to fix. */
export type PageOutcome = LinkOutcome | { kind: 'edit_refused'; view: OpenView };

type OpenView = Extract<LinkView, { kind: 'open' }>;

/** Refusals audited in one minute before the rest are only counted (the next entry says how many). */
const REFUSAL_AUDITS_PER_MINUTE = 30;

const FORM_CONTEXT = 'gatehouse-decision-form-v1.';

/**
 * Turns decision links into decisions. Every path checks the token's signature and expiry
 * first; only a POST decides, and it spends the token's nonce in the same unit of work as the
 * decision, so a token decides at most once. A refused token is audited (`link.refused`) with
 * its reason, the channel it claims and the transport it came by.
 */
export class LinkDecider {
  private refusalWindow = { start: 0, count: 0, suppressed: 0 };

  constructor(
    private readonly d: {
      links: DecisionLinks;
      engine: LinkEnginePort;
      nonces: UsedNonces;
      /** The link signing key (form tokens are MACs with it too). */
      key: string;
    },
  ) {}

  /** What a GET of the page shows. Never decides, never spends. */
  async view(token: string, transport: LinkTransport): Promise<LinkView> {
    const checked = await this.check(token, transport);
    if (checked.kind === 'refused') return checked;
    const { claims, request } = checked;
    if (!isWaitingForYou(request.status)) return { kind: 'decided', request, claims };
    if (this.d.nonces.usedAt(claims.nonce) !== undefined)
      return this.refuse('replayed', transport, claims, request);
    return this.openView(claims, request);
  }

  private openView(
    claims: DecisionClaims,
    request: RequestRecord,
    edited?: Omit<PhoneEdit, 'mode'>,
  ): OpenView {
    const inferred = this.d.engine.inferredUrgency?.(request);
    const agentWaiting = this.d.engine.agentWaiting(request.requestId);
    const offer = phoneEditOffer(request, {
      agentWaiting,
      mayApproveOnce: claims.decisions.includes('approve'),
    });
    return {
      kind: 'open',
      request,
      claims,
      ...(inferred ? { inferred } : {}),
      decisions: claims.decisions.filter((d) => d !== 'approve_session' || allowsSession(request)),
      agentWaiting,
      formToken: this.formTokenFor(claims.nonce),
      ...(offer ? { edit: { ...offer, ...edited } } : {}),
    };
  }

  /**
   * The page's POST: a decision the token carries, with the page's form token. With `edit`,
   * an approval once of the edited call, through the same `decide` the dashboard calls: an
   * edit the engine refuses (not JSON, riskier and not confirmed for this text, a masked
   * value moved) decides nothing, spends nothing, and comes back to the page with why.
   */
  async decideFromPage(
    token: string,
    form: {
      decision: string;
      formToken: string;
      reason?: string;
      edit?: string;
      confirmRiskier?: string;
    },
    transport: LinkTransport,
  ): Promise<PageOutcome> {
    const checked = await this.check(token, transport);
    if (checked.kind === 'refused') return checked;
    const { claims, request } = checked;
    if (!this.formTokenValid(claims.nonce, form.formToken))
      return this.refuse('bad_form', transport, claims, request);
    if (form.edit === undefined)
      return this.spend(claims, request, form.decision, transport, form.reason);
    const offer = phoneEditOffer(request, {
      agentWaiting: this.d.engine.agentWaiting(request.requestId),
      mayApproveOnce: claims.decisions.includes('approve'),
    });
    if (form.decision !== 'approve' || !offer)
      return isWaitingForYou(request.status)
        ? this.refuse('not_allowed', transport, claims, request)
        : this.spend(claims, request, form.decision, transport);
    // A browser sends a textarea's line breaks as CRLF; the command or JSON had LF.
    const text = form.edit.replace(/\r\n?/g, '\n');
    const parsed = editedInputOf(offer.mode, text);
    if ('error' in parsed)
      return {
        kind: 'edit_refused',
        view: this.openView(claims, request, { text, error: parsed.error }),
      };
    const confirmed =
      form.confirmRiskier !== undefined && form.confirmRiskier === confirmedText(text);
    try {
      return await this.spend(claims, request, 'approve', transport, undefined, {
        input: parsed.input,
        ...(confirmed ? { confirmRiskier: true } : {}),
      });
    } catch (error) {
      const current = this.d.engine.getRequest(claims.requestId);
      if (!(error instanceof GatehouseError) || error.code !== ErrorCode.InvalidParams || !current)
        throw error;
      if (!isWaitingForYou(current.status))
        return { kind: 'decided', request: current, byThisLink: false };
      const riskier = /riskier than the one asked/.test(error.message);
      return {
        kind: 'edit_refused',
        view: this.openView(claims, current, {
          text,
          ...(riskier
            ? { riskier: error.message, riskierOf: confirmedText(text) }
            : { error: error.message }),
        }),
      };
    }
  }

  /**
   * A button: a token that carries exactly one decision makes it (ntfy's `http` action POSTs
   * `<link>/act`; a reply-topic message carries the token). `reason` goes with a deny.
   */
  async redeemAction(
    token: string,
    transport: LinkTransport,
    reason?: string,
  ): Promise<LinkOutcome> {
    const checked = await this.check(token, transport);
    if (checked.kind === 'refused') return checked;
    const [only, ...more] = checked.claims.decisions;
    if (only === undefined || more.length > 0)
      return this.refuse('not_allowed', transport, checked.claims, checked.request);
    return this.spend(checked.claims, checked.request, only, transport, reason);
  }

  /** A MAC over the link's nonce and a fresh one: proof that a POST comes from our page. */
  formTokenFor(linkNonce: string): string {
    const fresh = randomBytes(12).toString('base64url');
    return `${fresh}.${this.formMac(linkNonce, fresh)}`;
  }

  private formTokenValid(linkNonce: string, formToken: string): boolean {
    const [fresh, mac, ...rest] = formToken.split('.');
    if (!fresh || !mac || rest.length > 0 || fresh.length > 64) return false;
    return secretsEqual(mac, this.formMac(linkNonce, fresh));
  }

  private formMac(linkNonce: string, fresh: string): string {
    return createHmac('sha256', this.d.key)
      .update(`${FORM_CONTEXT}${linkNonce}.${fresh}`)
      .digest('base64url');
  }

  private async check(
    token: string,
    transport: LinkTransport,
  ): Promise<
    | { kind: 'ok'; claims: DecisionClaims; request: RequestRecord }
    | { kind: 'refused'; reason: LinkRefusal }
  > {
    const verified = this.d.links.verify(token);
    if (!verified.ok) {
      await this.audit(verified.reason, transport, {
        ...(verified.claimed?.requestId ? { claimedRequestId: verified.claimed.requestId } : {}),
        ...(verified.claimed?.channel ? { channel: verified.claimed.channel } : {}),
        verified: false,
      });
      return { kind: 'refused', reason: verified.reason };
    }
    const { claims } = verified;
    const request = this.d.engine.getRequest(claims.requestId);
    if (!request) return this.refuse('unknown_request', transport, claims);
    return { kind: 'ok', claims, request };
  }

  private async spend(
    claims: DecisionClaims,
    request: RequestRecord,
    decisionText: string,
    transport: LinkTransport,
    reason?: string,
    edit?: { input: Record<string, unknown>; confirmRiskier?: true },
  ): Promise<LinkOutcome> {
    const decision = claims.decisions.find((d) => d === decisionText);
    if (!decision || (decision === 'approve_session' && !allowsSession(request)))
      return this.refuse('not_allowed', transport, claims, request);
    if (!isWaitingForYou(request.status)) {
      // Decided elsewhere (or by this link): the person sees who and how, no decision made.
      if (this.d.nonces.usedAt(claims.nonce) !== undefined)
        return this.refuse('replayed', transport, claims, request);
      return { kind: 'decided', request, byThisLink: false };
    }
    const now = this.d.engine.now();
    const trimmedReason = reason?.trim().slice(0, 2000);
    let decided: RequestRecord | 'spent';
    try {
      decided = await this.d.engine.decideSpending(
        () => {
          this.d.nonces.pruneExpired(now);
          return this.d.nonces.consume(claims.nonce, claims.requestId, now, claims.expiresAt);
        },
        {
          requestId: claims.requestId,
          decision: decision === 'deny' ? 'deny' : 'approve',
          scope: decision === 'approve_session' ? 'session' : 'once',
          via: linkDecisionChannel(claims.channel),
          ...(decision === 'deny' && trimmedReason ? { reason: trimmedReason } : {}),
          ...(edit && decision === 'approve' ? { edit } : {}),
        },
      );
    } catch (error) {
      // Decided by someone else between the check and this unit: show theirs, spend nothing.
      const current = this.d.engine.getRequest(claims.requestId);
      if (current && !isWaitingForYou(current.status))
        return { kind: 'decided', request: current, byThisLink: false };
      throw error;
    }
    if (decided === 'spent') return this.refuse('replayed', transport, claims, request);
    return { kind: 'decided', request: decided, byThisLink: true };
  }

  private async refuse(
    reason: LinkRefusal,
    transport: LinkTransport,
    claims: DecisionClaims,
    request?: RequestRecord,
  ): Promise<{ kind: 'refused'; reason: LinkRefusal }> {
    await this.audit(
      reason,
      transport,
      { channel: claims.channel, verified: true },
      request ?? { requestId: claims.requestId },
    );
    return { kind: 'refused', reason };
  }

  /**
   * Audits a refusal, at most {@link REFUSAL_AUDITS_PER_MINUTE} a minute: someone who can
   * reach the listener cannot bury the audit trail in forged links; the next entry after a
   * quiet spell says how many were only counted.
   */
  private async audit(
    reason: LinkRefusal,
    transport: LinkTransport,
    data: Record<string, unknown>,
    request?: Pick<RequestRecord, 'requestId'> & Partial<RequestRecord>,
  ): Promise<void> {
    const now = this.d.engine.now();
    const w = this.refusalWindow;
    if (now - w.start >= 60_000) {
      w.start = now;
      w.count = 0;
    }
    if (w.count >= REFUSAL_AUDITS_PER_MINUTE) {
      w.suppressed++;
      return;
    }
    w.count++;
    const suppressed = w.suppressed;
    w.suppressed = 0;
    await this.d.engine.audit('link.refused', {
      ...(request?.requestId ? { requestId: request.requestId } : {}),
      ...(request?.sessionId ? { sessionId: request.sessionId } : {}),
      ...(request?.agent ? { agent: request.agent } : {}),
      data: { reason, transport, ...data, ...(suppressed ? { suppressedBefore: suppressed } : {}) },
    });
  }
}

/** Gatehouse's own files are approved once only (the engine refuses more); the page agrees. */
function allowsSession(request: RequestRecord): boolean {
  return !isProtectedRule(request.rule);
}
