import type { z } from 'zod';
import type { NtfyChannelSettings } from '../../shared/settings/notifications';
import type { Clock } from '../../shared/clock';
import { withRetries } from './backoff';
import {
  consoleNotifyLogger,
  type NotificationChannel,
  type NotificationItem,
  type NotifyLogger,
  type OutgoingNotification,
} from './types';

export type NtfyConfig = z.infer<typeof NtfyChannelSettings>;

/** An action button as ntfy's JSON publish API takes it (docs.ntfy.sh, "Action buttons"). */
export interface NtfyAction {
  action: 'view' | 'http';
  label: string;
  url: string;
  method?: 'POST' | 'PUT' | 'GET';
  headers?: Record<string, string>;
  body?: string;
  /** Dismiss the notification once the button was pressed and the request succeeded. */
  clear?: boolean;
}

/** The click target and the buttons of a notification about one request. */
export interface NtfyButtons {
  click?: string;
  actions: NtfyAction[];
}

/**
 * Builds the buttons of one request's notification (main/remote/ntfy-buttons.ts): `http`
 * actions to the signed decision URL, or to the reply topic with a signed token. Undefined when
 * no way back is set up: the notification then only informs. `approve` false: Deny only (what
 * the request runs was cut to fit the notification).
 */
export type NtfyButtonsFor = (
  requestId: string,
  config: NtfyConfig,
  offer: { approve: boolean },
) => NtfyButtons | undefined | Promise<NtfyButtons | undefined>;

/** The JSON body of a publish (`POST <server>/`). */
export interface NtfyPublish {
  topic: string;
  title: string;
  message: string;
  priority: 1 | 2 | 3 | 4 | 5;
  tags: string[];
  click?: string;
  actions?: NtfyAction[];
}

class PermanentNtfyError extends Error {}

/** ntfy's priorities: 3 is the default; 4 vibrates longer; 5 breaks through Do Not Disturb. */
const priorityOf = (n: OutgoingNotification): NtfyPublish['priority'] => {
  if (n.items.some((i) => i.risk === 'critical')) return 5;
  return n.urgency === 'high' ? 4 : n.urgency === 'normal' ? 3 : 2;
};

/** Emoji shortcodes ntfy shows before the title. */
const tagsOf = (n: OutgoingNotification): string[] => {
  if (n.items.some((i) => i.risk === 'critical')) return ['rotating_light', 'gatehouse'];
  if (n.urgency === 'high') return ['warning', 'gatehouse'];
  return ['bell', 'gatehouse'];
};

/** What, why, command, agent, project: the lines of one request, short enough for a lock screen. */
export function ntfyMessageOf(item: NotificationItem): string {
  const f = item.facts;
  if (!f) return item.body;
  const lines = [`${f.what} (${f.action})`];
  if (f.why) lines.push(`Why: ${f.why}`);
  if (f.command) lines.push(`Command: ${f.command}`);
  else if (f.target) lines.push(`Target: ${f.target}`);
  if (f.change) lines.push(`Changes: ${f.change}`);
  const who = [item.agent, item.project].filter(Boolean).join(' in ');
  if (who) lines.push(`Agent: ${who}`);
  if (item.kind !== 'request') lines.unshift(item.body.split('\n')[0] ?? '');
  return lines.join('\n');
}

/**
 * Pushes notifications to the ntfy app through ntfy's JSON publish API, with Approve and Deny
 * buttons on a notification about one request. Retries temporary failures (network, 429,
 * 5xx) with back-off on the injected clock.
 */
export class NtfyChannel implements NotificationChannel {
  readonly id = 'ntfy' as const;
  private readonly log: NotifyLogger;

  constructor(
    private readonly deps: {
      clock: Clock;
      getConfig: () => NtfyConfig;
      buttonsFor?: NtfyButtonsFor;
      fetch?: typeof fetch;
      log?: NotifyLogger;
      maxAttempts?: number;
      initialBackoffMs?: number;
    },
  ) {
    this.log = deps.log ?? consoleNotifyLogger;
  }

  async send(n: OutgoingNotification): Promise<void> {
    const config = this.deps.getConfig();
    if (!config.topic) throw new Error('ntfy channel is enabled but has no topic');
    const [first] = n.items;
    const one = n.items.length === 1 && first !== undefined;
    const buttons =
      one && n.requestId && first.kind !== 'session_summary'
        ? await this.deps.buttonsFor?.(n.requestId, config, { approve: first.cut !== true })
        : undefined;
    const body: NtfyPublish = {
      topic: config.topic,
      title: n.title,
      message: one ? ntfyMessageOf(first) : n.body,
      priority: priorityOf(n),
      tags: tagsOf(n),
      ...(buttons?.click ? { click: buttons.click } : {}),
      ...(buttons?.actions.length ? { actions: buttons.actions.slice(0, 3) } : {}),
    };
    await this.publish(config, body);
  }

  /** One JSON publish, retried; also used by `gatehouse ntfy setup` for its test message. */
  async publish(config: NtfyConfig, body: NtfyPublish): Promise<void> {
    const json = JSON.stringify(body);
    await withRetries(
      {
        clock: this.deps.clock,
        maxAttempts: this.deps.maxAttempts ?? 4,
        initialBackoffMs: this.deps.initialBackoffMs ?? 1_000,
        maxBackoffMs: 30_000,
        isPermanent: (error) => error instanceof PermanentNtfyError,
        log: this.log,
        label: 'ntfy',
      },
      async () => {
        const res = await (this.deps.fetch ?? fetch)(`${config.server.replace(/\/+$/, '')}/`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(config.token ? { Authorization: `Bearer ${config.token}` } : {}),
          },
          body: json,
          redirect: 'error',
          signal: AbortSignal.timeout(15_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return;
        const message = `ntfy answered HTTP ${res.status}`;
        if (res.status >= 500 || res.status === 408 || res.status === 429) throw new Error(message);
        throw new PermanentNtfyError(message);
      },
    );
  }
}
