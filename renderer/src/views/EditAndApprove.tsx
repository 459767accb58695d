import { useState } from 'react';
import type { RequestRecord } from '../../../shared/domain';
import { canTakeEdit } from '../../../shared/request-picture/edit-support';
import { MASK_MARK } from '../../../shared/request-picture/mask-secrets';
import { useApi } from '../api-context';
import { UI_CHANNEL } from '../util/channel';
import { ErrorNote } from '../components/fields';
import { errorText } from '../util/format';
import { HiddenCharactersWarning } from '../components/agent-text';

/** The tool input the daemon kept for editing, secrets masked (shared/request-picture/edit-support.ts). */
const toolInputOf = (r: RequestRecord): Record<string, unknown> | undefined => {
  const input = r.context?.toolInput;
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : undefined;
};

/** The edited text as a tool input: a JSON object, or why it is not one. */
function parseInput(text: string): { input: Record<string, unknown> } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { error: `The input is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? { input: parsed as Record<string, unknown> }
    : { error: 'The input must be a JSON object of the tool’s fields' };
}

/**
 * Edit before approving: the person changes the command, or for another tool its input as
 * JSON (a file write's content, an MCP call's arguments), and approves the edited call,
 * which the agent runs instead of its own. Gatehouse classifies the edited call again; when
 * it is riskier than what the agent asked, the reason is shown and a second click confirms
 * it. Offered only for an agent whose hooks run an edited call; for others it says so.
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
  const original = toolInputOf(request);
  // A command is edited as itself; any other tool call as its input's JSON.
  const asCommand = request.command !== undefined;
  // The kept input's command is masked like the rest of it; the request's line is the fallback.
  const asked = asCommand
    ? typeof original?.command === 'string'
      ? original.command
      : request.command!
    : JSON.stringify(original ?? {}, null, 2);
  const [command, setCommand] = useState(asked);
  const [riskier, setRiskier] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (request.status !== 'pending' || (!asCommand && !original)) return null;
  if (!canTakeEdit(request))
    return (
      <p className="muted" data-testid="edit-unsupported">
        This agent&apos;s hooks cannot run an edited {asCommand ? 'command' : 'call'}: approve or
        deny it as asked.
      </p>
    );
  const approve = async (confirmRiskier: boolean) => {
    const edited = asCommand ? { input: { command } } : parseInput(command);
    if ('error' in edited) return setError(edited.error);
    setBusy(true);
    setError(undefined);
    try {
      const { request: decided } = await api.decide({
        requestId: request.requestId,
        decision: 'approve',
        via: UI_CHANNEL,
        edit: { input: edited.input, ...(confirmRiskier ? { confirmRiskier: true } : {}) },
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
        {asCommand ? 'Edit the command before approving…' : 'Edit the input before approving…'}
      </button>
    );
  return (
    <div className="edit-approve" data-testid="edit-approve">
      <label htmlFor="edit-command">
        {asCommand
          ? 'Approve this command instead'
          : `Approve the ${String(request.context?.tool ?? 'tool')} call with this input (JSON) instead`}
      </label>
      {asked.includes(MASK_MARK) ? (
        <p className="muted" data-testid="edit-masked-note">
          Values shown as …[masked] are secrets kept off this page. Left on a line you do not
          change, each goes back as the agent wrote it; moved or on a changed line, the edit is
          refused: type the value in full there instead.
        </p>
      ) : null}
      <HiddenCharactersWarning text={command} testId="edit-hidden-chars" />
      <textarea
        id="edit-command"
        data-testid="edit-command"
        className={asCommand ? undefined : 'code'}
        spellCheck={!asCommand ? false : undefined}
        value={command}
        rows={Math.min(asCommand ? 6 : 16, command.split('\n').length + 1)}
        onChange={(e) => {
          setCommand(e.target.value);
          setRiskier(undefined);
          setError(undefined);
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
            Approve the riskier {asCommand ? 'command' : 'call'}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="button primary"
          data-testid="edit-approve-button"
          disabled={busy || command.trim() === '' || command === asked}
          onClick={() => void approve(false)}
        >
          Approve the edited {asCommand ? 'command' : 'call'} once
        </button>
      )}
      <ErrorNote error={error} testId="edit-error" />
    </div>
  );
}
