import { useState } from 'react';
import type { RequestRecord } from '../../../shared/domain';
import { canTakeEdit } from '../../../shared/request-picture/edit-support';
import { useApi } from '../api-context';
import { UI_CHANNEL } from '../util/channel';
import { ErrorNote } from '../components/fields';
import { errorText } from '../util/format';

/**
 * Edit before approving: the person changes the command and approves the edited call, which
 * the agent runs instead of its own. Gatehouse classifies the edited call again; when it is
 * riskier than what the agent asked, the reason is shown and a second click confirms it.
 * Offered only for a command of an agent whose hooks run an edited call; for others it says
 * so.
 */
export function EditAndApprove({
  request,
  onDecided,
}: {
  request: RequestRecord;
  onDecided: (r: RequestRecord) => void;
}) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [command, setCommand] = useState(request.command ?? '');
  const [riskier, setRiskier] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (request.command === undefined || request.status !== 'pending') return null;
  if (!canTakeEdit(request))
    return (
      <p className="muted" data-testid="edit-unsupported">
        This agent&apos;s hooks cannot run an edited command: approve or deny it as asked.
      </p>
    );
  const approve = async (confirmRiskier: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const { request: decided } = await api.decide({
        requestId: request.requestId,
        decision: 'approve',
        via: UI_CHANNEL,
        edit: { input: { command }, ...(confirmRiskier ? { confirmRiskier: true } : {}) },
      });
      onDecided(decided);
    } catch (e) {
      const text = errorText(e);
      if (/riskier than the one asked/.test(text)) setRiskier(text);
      else setError(text);
    } finally {
      setBusy(false);
    }
  };
  if (!open)
    return (
      <button
        type="button"
        className="button subtle"
        data-testid="edit-open"
        onClick={() => setOpen(true)}
      >
        Edit the command before approving…
      </button>
    );
  return (
    <div className="edit-approve" data-testid="edit-approve">
      <label htmlFor="edit-command">Approve this command instead</label>
      <textarea
        id="edit-command"
        data-testid="edit-command"
        value={command}
        rows={Math.min(6, command.split('\n').length + 1)}
        onChange={(e) => {
          setCommand(e.target.value);
          setRiskier(undefined);
        }}
      />
      {riskier ? (
        <>
          <p className="picture-omitted" data-testid="edit-riskier">
            {riskier}
          </p>
          <button
            type="button"
            className="button danger"
            data-testid="edit-confirm-riskier"
            disabled={busy}
            onClick={() => void approve(true)}
          >
            Approve the riskier command
          </button>
        </>
      ) : (
        <button
          type="button"
          className="button primary"
          data-testid="edit-approve-button"
          disabled={busy || command.trim() === '' || command === request.command}
          onClick={() => void approve(false)}
        >
          Approve the edited command once
        </button>
      )}
      <ErrorNote error={error} testId="edit-error" />
    </div>
  );
}
