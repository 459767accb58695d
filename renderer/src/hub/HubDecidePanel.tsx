import { useState } from 'react';
import { RuleStepButtons } from '../components/rule-steps';
import type { DecisionScope } from '../../../shared/domain';
import type { HubRequestView } from '../../../shared/protocol/hub-web-methods';
import {
  approvalTerms,
  EMPTY_TERMS,
  hasEnvelope,
  type ApprovalTermsForm,
  type DashboardTerms,
} from './hub-approval-terms';
import { AgentText } from '../components/agent-text';

interface Props {
  request: HubRequestView;
  busy: boolean;
  /** Sends the decision to the hub. */
  onDecide: (
    decision: 'approve' | 'deny',
    scope: DecisionScope,
    o: { reason?: string; terms?: DashboardTerms },
  ) => void;
}

/**
 * How an approver decides one of the team's requests: once, for the session or always, with
 * the rule its machine offered (the machine's own preview, narrowest first, widened a notch
 * at a time: the machine saves nothing else), and the same terms as `gatehouse --hub URL
 * approve` (an envelope of minutes, uses or spend, a message and conditions for the agent); or
 * deny with a reason. Under a team rule a request is approved once, as asked.
 */
export function HubDecidePanel({ request, busy, onDecide }: Props) {
  const [reason, setReason] = useState('');
  const [step, setStep] = useState(0);
  const [form, setForm] = useState<ApprovalTermsForm>(EMPTY_TERMS);
  const [error, setError] = useState<string>();
  const team = request.team;
  const offers = team ? undefined : request.offers;
  const offer = offers?.[Math.min(step, offers.length - 1)];
  const field = (k: keyof ApprovalTermsForm) => ({
    value: form[k],
    disabled: busy,
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value }),
  });

  const approve = (scope: DecisionScope) => {
    if (team) return onDecide('approve', 'once', {});
    const checked = approvalTerms(form);
    if ('error' in checked) return setError(checked.error);
    // The rule is named where the approval remembers one: session, always or an envelope.
    const remembers = scope !== 'once' || hasEnvelope(checked.terms);
    const terms: DashboardTerms = {
      ...checked.terms,
      ...(remembers && offer ? { ruleOffer: offer.id } : {}),
    };
    setError(undefined);
    onDecide('approve', scope, Object.keys(terms).length ? { terms } : {});
  };

  return (
    <div className="decision" data-testid="hub-decide">
      <div className="decision-row">
        <button
          type="button"
          className="button"
          data-testid="hub-approve-once"
          disabled={busy}
          onClick={() => approve('once')}
        >
          Approve once
        </button>
        {/* Under a team rule a request is decided once: a remembered rule would skip the team's. */}
        {!team && (
          <>
            <button
              type="button"
              className="button"
              data-testid="hub-approve-session"
              disabled={busy}
              onClick={() => approve('session')}
            >
              Approve for the session
            </button>
            <button
              type="button"
              className="button"
              data-testid="hub-approve-always"
              disabled={busy}
              onClick={() => approve('always')}
            >
              Approve always
            </button>
          </>
        )}
      </div>
      {!team &&
        (offers && offer ? (
          <div
            className="decision-row stacked always-preview"
            role="group"
            aria-label="The rule session and always save"
            data-testid="hub-rule-preview"
          >
            <span>
              Session, always and an envelope cover (
              {step === 0 ? 'the narrowest' : `widened ${step}×`}, as {request.machine} previewed
              it):
            </span>
            <code data-testid="hub-rule-text" data-offer={offer.id}>
              <AgentText text={offer.describe} />
            </code>
            <div className="decision-row">
              <RuleStepButtons
                step={step}
                last={offers.length - 1}
                busy={busy}
                setStep={setStep}
                narrower={{ testId: 'hub-rule-narrower' }}
                wider={{ testId: 'hub-rule-wider' }}
              />
            </div>
          </div>
        ) : (
          <p className="hint" data-testid="hub-rule-preview-missing">
            {request.machine} published no rule preview for this request: session and always save
            its own narrowest rule that covers it.
          </p>
        ))}
      {!team && (
        <fieldset className="hub-approval-terms" disabled={busy}>
          <legend>Approval terms (optional)</legend>
          <div className="decision-row">
            <label>
              Also cover for{' '}
              <input
                className="minutes"
                inputMode="decimal"
                aria-label="Minutes"
                data-testid="hub-terms-minutes"
                {...field('minutes')}
              />{' '}
              minutes
            </label>
            <label>
              or{' '}
              <input
                className="minutes"
                inputMode="numeric"
                aria-label="Uses"
                data-testid="hub-terms-uses"
                {...field('uses')}
              />{' '}
              more uses
            </label>
            <label>
              or up to ${' '}
              <input
                className="minutes"
                inputMode="decimal"
                aria-label="Max spend in US dollars"
                data-testid="hub-terms-max-spend"
                {...field('maxSpend')}
              />
            </label>
          </div>
          <input
            aria-label="Message for the agent"
            placeholder="Message for the agent"
            data-testid="hub-terms-message"
            {...field('message')}
          />
          <textarea
            aria-label="Conditions, one a line"
            placeholder="Conditions, one a line"
            rows={2}
            data-testid="hub-terms-conditions"
            {...field('conditions')}
          />
          {error && (
            <p className="error" role="alert" data-testid="hub-terms-error">
              {error}
            </p>
          )}
        </fieldset>
      )}
      <div className="deny-row">
        <input
          aria-label="Reason for a deny"
          placeholder="Reason (sent to the agent)"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <button
          type="button"
          className="button warn"
          data-testid="hub-deny"
          disabled={busy}
          onClick={() => onDecide('deny', 'once', reason ? { reason } : {})}
        >
          Deny
        </button>
      </div>
    </div>
  );
}
