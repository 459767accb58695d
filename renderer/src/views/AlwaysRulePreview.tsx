import { useEffect, useState } from 'react';
import type { RuleDraft } from '../../../shared/domain';
import { useApi } from '../api-context';
import { errorText } from '../util/format';
import { RuleStepButtons } from '../components/rule-steps';
import { AgentText } from '../components/agent-text';

interface Props {
  requestId: string;
  busy: boolean;
  /** Saves the chosen draft as an "always" rule. */
  onSave: (rule: RuleDraft) => void;
  onCancel: () => void;
}

interface Ladder {
  drafts: RuleDraft[];
  describe: string[];
}

/**
 * What "Always" would save, shown before it is saved: the narrowest rule that covers the
 * request, with buttons to widen it one notch at a time (and back), then save.
 */
export function AlwaysRulePreview({ requestId, busy, onSave, onCancel }: Props) {
  const api = useApi();
  const [ladder, setLadder] = useState<Ladder>();
  const [error, setError] = useState<string>();
  const [step, setStep] = useState(0);

  useEffect(() => {
    let live = true;
    api.previewRule(requestId).then(
      (p) => {
        if (live) setLadder({ drafts: [p.draft, ...p.widenings], describe: p.describe });
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [api, requestId]);

  if (error)
    return (
      <p className="error" role="alert" data-testid="always-preview-error">
        {error}
      </p>
    );
  if (!ladder) return <p data-testid="always-preview-loading">Working out the rule…</p>;
  const last = ladder.drafts.length - 1;
  return (
    <div
      className="decision-row stacked always-preview"
      role="group"
      aria-label="The rule Always will save"
      data-testid="always-preview"
    >
      <span>This rule will be saved ({step === 0 ? 'the narrowest' : `widened ${step}×`}):</span>
      <code id="always-rule-text" data-testid="always-rule-text" data-step={step}>
        <AgentText text={ladder.describe[step] ?? ''} />
      </code>
      {step < last && (
        <span className="hint" data-testid="always-next-text">
          Widen to: <AgentText text={ladder.describe[step + 1] ?? ''} />
        </span>
      )}
      <div className="decision-row">
        <RuleStepButtons
          step={step}
          last={last}
          busy={busy}
          setStep={setStep}
          narrower={{ testId: 'always-narrow', id: 'always-narrow' }}
          wider={{ testId: 'always-widen', id: 'always-widen' }}
        />
        <button
          type="button"
          className="button primary"
          id="always-save"
          data-testid="always-save"
          disabled={busy}
          onClick={() => onSave(ladder.drafts[step]!)}
        >
          Approve and save this rule
        </button>
        <button
          type="button"
          className="button subtle"
          id="always-cancel"
          data-testid="always-cancel"
          disabled={busy}
          onClick={onCancel}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
