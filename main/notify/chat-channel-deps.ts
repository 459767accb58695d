import type { Clock } from '../../shared/clock';
import type { NotifyLogger } from './types';

/**
 * What a chat app's notification channel (Telegram, Slack, Discord) is built from: its
 * settings, read at each send, and the buttons port of its way back (main/remote/start-*.ts),
 * absent when no way back runs (then messages go without buttons).
 */
export interface ChatChannelDeps<Config, Buttons> {
  clock: Clock;
  getConfig: () => Config;
  buttons?: Buttons;
  fetch?: typeof fetch;
  log?: NotifyLogger;
  maxAttempts?: number;
  initialBackoffMs?: number;
}
