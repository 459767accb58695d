import { useState } from 'react';
import { useApi } from '../api-context';

/** The chat apps whose set-up is finished by a test message with a button. */
export const CHAT_APPS = ['telegram', 'slack', 'discord'] as const;
export type ChatApp = (typeof CHAT_APPS)[number];

export const isChatApp = (channel: string): channel is ChatApp =>
  (CHAT_APPS as readonly string[]).includes(channel);

const APP_NAMES: Record<ChatApp, string> = {
  telegram: 'Telegram',
  slack: 'Slack',
  discord: 'Discord',
};

/**
 * "Send test message" for a chat app, beside its health: once its fields below are filled in
 * (`notifications.channels.<app>`, or `gatehouse chat setup <app>`), the daemon posts its
 * test message (`notifications.test`), whose button answers an allowed person in the app.
 */
export function ChatTestButton({ app, onTested }: { app: ChatApp; onTested: () => void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>();

  const test = async (): Promise<void> => {
    setBusy(true);
    setOutcome(undefined);
    try {
      const r = await api.testNotification(app);
      onTested();
      setOutcome(
        r.ok
          ? {
              ok: true,
              text: `Test message sent: press its button in ${APP_NAMES[app]} to check that presses come back.`,
            }
          : { ok: false, text: `The test message was not delivered: ${r.error ?? 'unknown'}` },
      );
    } catch (error) {
      setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="chat-test">
      {' '}
      <button
        type="button"
        className="button"
        data-testid={`chat-test-${app}`}
        disabled={busy}
        onClick={() => void test()}
      >
        Send test message
      </button>
      {outcome && (
        <span
          role="status"
          data-testid={`chat-test-${app}-outcome`}
          className={outcome.ok ? 'ok' : 'error'}
        >
          {' '}
          {outcome.text}
        </span>
      )}
    </span>
  );
}
