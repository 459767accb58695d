import { useState } from 'react';
import type { TelegramChatSeen } from '../../../shared/protocol/notify-methods';
import { useApi } from '../api-context';

/** How long the daemon waits for a `/start` after "Find my chat". */
const WAIT_S = 60;

const who = (c: TelegramChatSeen): string =>
  [c.name, c.username ? `@${c.username}` : undefined].filter(Boolean).join(' ') ||
  `user ${c.userId}`;

/**
 * Telegram's set-up from the dashboard: once the bot token is saved, "Find my chat" has the
 * daemon wait for the person to send `/start` to the bot and lists the chats that wrote to it;
 * "Use this chat" sends requests there and lets its writer decide (`chat.telegramUse`, which
 * accepts only a chat the look found). What the chats say is shown as text, never markup.
 */
export function TelegramChatFinder({ onChosen }: { onChosen: () => void }) {
  const api = useApi();
  const [state, setState] = useState<
    | { kind: 'idle' }
    | { kind: 'waiting' }
    | { kind: 'found'; bot: string; chats: TelegramChatSeen[] }
    | { kind: 'chosen'; chat: TelegramChatSeen }
    | { kind: 'error'; text: string }
  >({ kind: 'idle' });

  const errorText = (error: unknown): string =>
    error instanceof Error ? error.message : String(error);

  const find = async (): Promise<void> => {
    setState({ kind: 'waiting' });
    try {
      const r = await api.findTelegramChats(WAIT_S);
      setState({ kind: 'found', ...r });
    } catch (error) {
      setState({ kind: 'error', text: errorText(error) });
    }
  };

  const use = async (chat: TelegramChatSeen): Promise<void> => {
    try {
      await api.useTelegramChat({ chatId: chat.chatId, userId: chat.userId });
      setState({ kind: 'chosen', chat });
      onChosen();
    } catch (error) {
      setState({ kind: 'error', text: errorText(error) });
    }
  };

  return (
    <div className="telegram-chats" data-testid="telegram-chats">
      <button
        type="button"
        className="button"
        data-testid="telegram-find-chat"
        disabled={state.kind === 'waiting'}
        onClick={() => void find()}
      >
        Find my chat
      </button>
      {state.kind === 'waiting' && (
        <span role="status"> Send /start to your bot in Telegram now (waiting {WAIT_S} s)…</span>
      )}
      {state.kind === 'found' && state.chats.length === 0 && (
        <span role="status">
          {' '}
          Nobody wrote to @{state.bot} yet: send it /start, then look again.
        </span>
      )}
      {state.kind === 'found' && state.chats.length > 0 && (
        <ul data-testid="telegram-chat-list">
          {state.chats.map((c) => (
            <li key={c.chatId} data-testid={`telegram-chat-${c.chatId}`}>
              {who(c)} (chat {c.chatId}){c.sentStart ? ' sent /start' : ''}{' '}
              <button type="button" className="button" onClick={() => void use(c)}>
                Use this chat
              </button>
            </li>
          ))}
        </ul>
      )}
      {state.kind === 'chosen' && (
        <span role="status" className="ok" data-testid="telegram-chat-chosen">
          {' '}
          Requests go to chat {state.chat.chatId}; {who(state.chat)} may decide.
        </span>
      )}
      {state.kind === 'error' && (
        <span role="status" className="error">
          {' '}
          {state.text}
        </span>
      )}
    </div>
  );
}
