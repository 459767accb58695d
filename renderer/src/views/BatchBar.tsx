import { useState } from 'react';
import type { RequestRecord } from '../../../shared/domain';
import { useApi } from '../api-context';
import { UI_CHANNEL } from '../util/channel';
import { useNotify } from '../components/notice';
import { errorText } from '../util/format';
import { AgentText } from '../components/agent-text';

interface Props {
  selected: RequestRecord[];
  onDecided: (requests: RequestRecord[]) => void;
  onClear: () => void;
}

/** Decides every checked request at once with `decideMany`, and reports any that failed. */
export function BatchBar({ selected, onDecided, onClear }: Props) {
  const api = useApi();
  const notify = useNotify();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  if (selected.length === 0) return null;

  const run = async (decision: 'approve' | 'deny', scope: 'once' | 'session') => {
    setBusy(true);
    try {
      const result = await api.decideMany({
        requestIds: selected.map((r) => r.requestId),
        decision,
        scope,
        via: UI_CHANNEL,
        reason: decision === 'deny' ? reason.trim() || undefined : undefined,
      });
      onDecided(result.decided);
      const verb = decision === 'approve' ? 'Approved' : 'Denied';
      notify(
        'info',
        `${verb} ${result.decided.length} request${result.decided.length === 1 ? '' : 's'}`,
      );
      for (const failure of result.failed)
        notify('error', `${failure.requestId}: ${failure.error}`);
      setReason('');
    } catch (error) {
      notify('error', `Batch decision failed: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const actions = new Set(selected.map((r) => r.action));
  // What the rows show is what the agents wrote about their calls; what approving them runs is
  // listed here, whole, before the buttons.
  const runs = selected.filter((r) => r.command !== undefined || r.target !== undefined);
  return (
    <section className="batch-bar" aria-label="Decide selected requests" data-testid="batch-bar">
      <p>
        <strong data-testid="batch-count">{selected.length}</strong> selected
        {actions.size > 1 && <span className="warn-text"> — different actions</span>}
      </p>
      {runs.length > 0 && (
        <div className="batch-runs">
          <p>Approving runs:</p>
          <ol data-testid="batch-runs">
            {runs.map((r) => (
              <li key={r.requestId} data-testid="batch-run">
                <pre className="code">
                  <AgentText text={r.command ?? r.target ?? ''} />
                </pre>
              </li>
            ))}
          </ol>
        </div>
      )}
      <button
        type="button"
        className="button primary"
        id="batch-approve"
        data-testid="batch-approve"
        disabled={busy}
        onClick={() => void run('approve', 'once')}
      >
        Approve {selected.length}
      </button>
      <button
        type="button"
        className="button"
        id="batch-approve-session"
        data-testid="batch-approve-session"
        disabled={busy}
        onClick={() => void run('approve', 'session')}
      >
        Approve {selected.length} for their sessions
      </button>
      <label htmlFor="batch-reason" className="visually-hidden">
        Reason for denying the selected requests
      </label>
      <input
        id="batch-reason"
        data-testid="batch-reason"
        placeholder="Reason to deny"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button
        type="button"
        className="button danger"
        id="batch-deny"
        data-testid="batch-deny"
        disabled={busy}
        onClick={() => void run('deny', 'once')}
      >
        Deny {selected.length}
      </button>
      <button
        type="button"
        className="button subtle"
        id="batch-clear"
        data-testid="batch-clear"
        onClick={onClear}
      >
        Clear selection
      </button>
    </section>
  );
}
