import { useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { RequestRecord, RuleDraft } from '../../../shared/domain';
import type { AdminParams } from '../../../shared/protocol/method-map';
import { useApi } from '../api-context';
import { UI_CHANNEL } from '../util/channel';
import { ErrorNote } from '../components/fields';
import { useNotify } from '../components/notice';
import { errorText } from '../util/format';
import { AlwaysRulePreview } from './AlwaysRulePreview';
import { EditAndApprove } from './EditAndApprove';

/** What the view's one keydown listener hands a key press to. */
export interface DecisionKeys {
  /** Runs the shortcut for `e.key`, if there is one; true when it did. */
  onKey(e: KeyboardEvent): boolean;
}

interface Props {
  request: RequestRecord;
  onDecided: (request: RequestRecord) => void;
  /** Set during commit, before paint: a key pressed once the panel shows reaches it. */
  keys?: Ref<DecisionKeys>;
}

type Decision = Omit<AdminParams<'decide'>, 'requestId'>;

/**
 * The ways to answer one request: approve once, for the session, always (a rule), for N
 * minutes (an envelope), with conditions; or deny with a reason. Single-key shortcuts work
 * while the focus is not in a text field.
 */
export function DecisionPanel({ request, onDecided, keys }: Props) {
  const api = useApi();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [reason, setReason] = useState('');
  const [conditions, setConditions] = useState('');
  const [minutes, setMinutes] = useState('30');
  const [note, setNote] = useState('');
  // "Always" first shows the rule it would save; this holds the request it is shown for.
  const [previewFor, setPreviewFor] = useState<string>();
  const previewing = previewFor === request.requestId;
  const reasonRef = useRef<HTMLInputElement>(null);
  const conditionsRef = useRef<HTMLTextAreaElement>(null);
  const minutesRef = useRef<HTMLInputElement>(null);

  const decide = async (decision: Decision, label: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const { request: decided, rule } = await api.decide({
        requestId: request.requestId,
        via: UI_CHANNEL,
        ...decision,
      });
      notify('info', `${label}: ${decided.description}`);
      if (rule) notify('info', `Created rule ${rule.ruleId}: ${rule.description}`);
      setPreviewFor(undefined);
      setReason('');
      setConditions('');
      setNote('');
      onDecided(decided);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const message = note.trim() || undefined;
  const approve = (scope: 'once' | 'session' | 'always', label: string) =>
    decide({ decision: 'approve', scope, message }, label);
  const showAlways = () => setPreviewFor(request.requestId);
  const saveAlways = (rule: RuleDraft) =>
    void decide({ decision: 'approve', scope: 'always', rule, message }, 'Approved always');
  const approveForMinutes = () => {
    const value = Number(minutes);
    if (!Number.isFinite(value) || value <= 0) {
      setError('Enter a number of minutes greater than 0.');
      minutesRef.current?.focus();
      return;
    }
    void decide(
      { decision: 'approve', scope: 'once', envelope: { minutes: value }, message },
      `Approved for ${value} min`,
    );
  };
  const approveWithConditions = () => {
    const list = conditions
      .split('\n')
      .map((c) => c.trim())
      .filter(Boolean);
    if (list.length === 0) {
      setError('Write at least one condition, one per line.');
      conditionsRef.current?.focus();
      return;
    }
    void decide(
      { decision: 'approve', scope: 'once', conditions: list, message },
      'Approved with conditions',
    );
  };
  const deny = () => {
    void decide({ decision: 'deny', reason: reason.trim() || undefined }, 'Denied');
  };

  useImperativeHandle(keys, () => ({
    onKey(e: KeyboardEvent) {
      if (busy) return false;
      const run: Record<string, () => void> = {
        a: () => void approve('once', 'Approved once'),
        s: () => void approve('session', 'Approved for the session'),
        W: showAlways,
        m: () => minutesRef.current?.focus(),
        d: () => reasonRef.current?.focus(),
        c: () => conditionsRef.current?.focus(),
      };
      const action = run[e.key];
      action?.();
      return action !== undefined;
    },
  }));

  return (
    <section className="decision" aria-label="Decide" data-testid="decision-panel">
      <div className="decision-row">
        <button
          type="button"
          className="button primary"
          id="decide-approve-once"
          data-testid="approve-once"
          disabled={busy}
          aria-keyshortcuts="a"
          onClick={() => void approve('once', 'Approved once')}
        >
          Approve once <kbd>a</kbd>
        </button>
        <button
          type="button"
          className="button"
          id="decide-approve-session"
          data-testid="approve-session"
          disabled={busy}
          aria-keyshortcuts="s"
          onClick={() => void approve('session', 'Approved for the session')}
        >
          For this session <kbd>s</kbd>
        </button>
        <button
          type="button"
          className="button"
          id="decide-approve-always"
          data-testid="approve-always"
          disabled={busy}
          aria-keyshortcuts="Shift+W"
          aria-expanded={previewing}
          aria-controls="always-preview"
          title="Shows the rule it would save (the narrowest that covers this request) first"
          onClick={showAlways}
        >
          Always… <kbd>W</kbd>
        </button>
      </div>
      {previewing && (
        <AlwaysRulePreview
          key={request.requestId}
          requestId={request.requestId}
          busy={busy}
          onSave={saveAlways}
          onCancel={() => setPreviewFor(undefined)}
        />
      )}
      <div className="decision-row">
        <label htmlFor="decide-minutes">For</label>
        <input
          id="decide-minutes"
          data-testid="approve-minutes-input"
          ref={minutesRef}
          type="number"
          min="1"
          step="1"
          inputMode="numeric"
          className="minutes"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && approveForMinutes()}
          aria-keyshortcuts="m"
        />
        <span>minutes</span>
        <button
          type="button"
          className="button"
          id="decide-approve-minutes"
          data-testid="approve-minutes"
          disabled={busy}
          onClick={approveForMinutes}
        >
          Approve for a while
        </button>
      </div>
      <div className="decision-row stacked">
        <label htmlFor="decide-note">Note to the agent (optional)</label>
        <input
          id="decide-note"
          data-testid="approve-note"
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      <div className="decision-row stacked">
        <label htmlFor="decide-conditions">Conditions, one per line</label>
        <textarea
          id="decide-conditions"
          data-testid="conditions-input"
          ref={conditionsRef}
          rows={2}
          value={conditions}
          onChange={(e) => setConditions(e.target.value)}
          aria-keyshortcuts="c"
        />
        <button
          type="button"
          className="button"
          id="decide-approve-conditions"
          data-testid="approve-conditions"
          disabled={busy}
          onClick={approveWithConditions}
        >
          Approve with conditions
        </button>
      </div>
      <div className="decision-row deny-row">
        <label htmlFor="decide-reason">Reason</label>
        <input
          id="decide-reason"
          data-testid="deny-reason"
          ref={reasonRef}
          value={reason}
          placeholder="Why not (the agent sees this)"
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && deny()}
          aria-keyshortcuts="d"
        />
        <button
          type="button"
          className="button danger"
          id="decide-deny"
          data-testid="deny"
          disabled={busy}
          onClick={deny}
        >
          Deny
        </button>
      </div>
      <EditAndApprove
        key={request.requestId}
        request={request}
        onDecided={(decided) => {
          notify('info', `Approved as edited: ${decided.description}`);
          onDecided(decided);
        }}
      />
      <ErrorNote error={error} testId="decision-error" />
    </section>
  );
}
