import { useState } from 'react';
import type { PasskeyStatus } from '../../../shared/protocol/hub-passkeys';
import { useNotify } from '../components/notice';
import { addPasskey, confirmWithPasskey, passkeyStatus, removePasskey } from './passkey-client';
import { useHubPoll } from './use-hub-poll';

export interface PasskeyState {
  status: PasskeyStatus | undefined;
  error: string | undefined;
  reload: () => void;
}

/** The signed-in person's passkeys and their session's second factor, kept fresh. */
export function usePasskeys(csrf: string): PasskeyState {
  const { data, error, reload } = useHubPoll(() => passkeyStatus(csrf), `passkeys:${csrf}`);
  return { status: data, error, reload };
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The person's passkeys: add one on this device, see when each was last used, remove one. */
export function HubPasskeys({ csrf, state }: { csrf: string; state: PasskeyState }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work();
      notify('info', done);
    } catch (e) {
      notify('error', message(e));
    } finally {
      setBusy(false);
      state.reload();
    }
  };
  return (
    <section className="panel" data-testid="hub-passkeys">
      <h2>Passkeys</h2>
      <p className="hint">
        Sign in with a passkey instead of a link. An admin confirms with one before any admin
        action.
      </p>
      {state.error && <p className="error">{state.error}</p>}
      {state.status && state.status.passkeys.length === 0 && (
        <p className="muted" data-testid="hub-passkeys-none">
          No passkey yet.
        </p>
      )}
      {state.status && state.status.passkeys.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Added</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {state.status.passkeys.map((p) => (
              <tr key={p.id} data-testid="hub-passkey" data-passkey-id={p.id}>
                <td>{new Date(p.createdAt).toLocaleString()}</td>
                <td>{p.lastUsedAt ? new Date(p.lastUsedAt).toLocaleString() : 'never'}</td>
                <td>
                  <button
                    type="button"
                    className="button"
                    data-testid="hub-passkey-remove"
                    disabled={busy}
                    onClick={() => void run(() => removePasskey(csrf, p.id), 'Passkey removed')}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="button"
          data-testid="hub-passkey-add"
          disabled={busy}
          onClick={() => void run(() => addPasskey(csrf), 'Passkey added')}
        >
          Add a passkey
        </button>
      </div>
    </section>
  );
}

/**
 * What an admin's session still needs before admin actions: a first passkey, or a confirmation
 * with one. Nothing once done (or for people who are not admins).
 */
export function SecondFactorPrompt({ csrf, state }: { csrf: string; state: PasskeyState }) {
  const notify = useNotify();
  const need = state.status?.secondFactor;
  if (need !== 'register' && need !== 'confirm') return null;
  const act = async () => {
    try {
      await (need === 'register' ? addPasskey(csrf) : confirmWithPasskey(csrf));
      notify('info', need === 'register' ? 'Passkey added' : 'Confirmed with your passkey');
    } catch (e) {
      notify('error', message(e));
    } finally {
      state.reload();
    }
  };
  return (
    <div
      className="banner banner-warn"
      role="alert"
      data-testid="hub-second-factor"
      data-need={need}
    >
      <p>
        {need === 'register'
          ? 'You are an admin: add a passkey before any admin action.'
          : 'You signed in with a link: confirm with your passkey before any admin action.'}
      </p>
      <div className="banner-actions">
        <button
          type="button"
          className="button"
          data-testid="hub-second-factor-go"
          onClick={() => void act()}
        >
          {need === 'register' ? 'Add a passkey' : 'Confirm with your passkey'}
        </button>
      </div>
    </div>
  );
}
