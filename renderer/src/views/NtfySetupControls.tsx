import { useState } from 'react';
import { useApi } from '../api-context';

/** What the last press of a button came to, shown beside the buttons. */
type Outcome = { ok: boolean; text: string } | undefined;

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * "Generate topic" and "Send test notification" for ntfy, beside its QR code. Both go through
 * the daemon (`ntfy.setup`, `notifications.test`), as `gatehouse ntfy setup` does: the daemon
 * makes the random topics and sends the test through its ntfy channel.
 */
export function NtfySetupControls({
  server: savedServer,
  configured,
  onTested,
}: {
  /** The ntfy server in the settings, to start the field with. */
  server: string;
  /** Whether a topic is set: a test needs one, and a new topic replaces it. */
  configured: boolean;
  /** After a test: its outcome now shows in the channel's health. */
  onTested: () => void;
}) {
  const api = useApi();
  const [server, setServer] = useState(savedServer || 'https://ntfy.sh');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  const run = async (action: () => Promise<Outcome>): Promise<void> => {
    setBusy(true);
    setOutcome(undefined);
    try {
      setOutcome(await action());
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };

  const generate = () =>
    run(async () => {
      const r = await api.setupNtfy({ server: server.trim() });
      return {
        ok: true,
        text: `New topic made: subscribe to ${r.subscribeUrl} in the ntfy app.`,
      };
    });

  const test = () =>
    run(async () => {
      const r = await api.testNotification('ntfy');
      onTested();
      return r.ok
        ? { ok: true, text: 'Test notification sent: it should be on your phone now.' }
        : { ok: false, text: `The test notification was not delivered: ${r.error ?? 'unknown'}` };
    });

  return (
    <div className="ntfy-setup" data-testid="ntfy-setup">
      <label>
        ntfy server{' '}
        <input
          type="url"
          data-testid="ntfy-server"
          value={server}
          onChange={(e) => setServer(e.target.value)}
          disabled={busy}
        />
      </label>{' '}
      <button
        type="button"
        className="button"
        data-testid="ntfy-generate"
        disabled={busy || !server.trim()}
        onClick={() => void generate()}
      >
        Generate topic
      </button>{' '}
      <button
        type="button"
        className="button subtle"
        data-testid="ntfy-test"
        disabled={busy || !configured}
        onClick={() => void test()}
      >
        Send test notification
      </button>
      {configured && (
        <p className="hint">
          A new topic replaces the current one: subscribe to it again on your phone.
        </p>
      )}
      <p role="status" aria-live="polite" data-testid="ntfy-outcome">
        {outcome && (
          <span className={outcome.ok ? 'ok' : 'error'} data-ok={outcome.ok}>
            {outcome.text}
          </span>
        )}
      </p>
    </div>
  );
}
