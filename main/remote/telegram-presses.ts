import type { AuditFields } from '../engine/kernel/unit-of-work';
import type { TelegramConfig } from '../notify/telegram-channel';
import type { TelegramApi, TelegramCallbackQuery, TelegramUser } from '../notify/telegram-api';
import type { ChatButtonsRepository } from '../store/chat-buttons-repository';
import { TEST_DECISION, type ChatButtons } from './chat-buttons';
import type { LinkDecider, LinkOutcome } from './link-decider';

/** What a person is told in Telegram when a press decides nothing. */
const REFUSED_TEXT: Record<string, string> = {
  not_allowed_user: 'You are not allowed to decide Gatehouse requests.',
  bad_form: 'This button is not valid.',
  unknown_button: 'This button is no longer valid.',
  other_app: 'This button is not valid.',
  other_request: 'This button belongs to another request.',
  expired: 'This button has expired.',
  replayed: 'This button was already used.',
};

/** Refusals audited in one minute before the rest are only counted. */
const REFUSAL_AUDITS_PER_MINUTE = 30;

/** How a Telegram user is shown and recorded: `@name (id)` or `first name (id)`. */
export const telegramUserLabel = (u: TelegramUser): string =>
  `${u.username ? `@${u.username}` : (u.first_name ?? 'user')} (${u.id})`;

/**
 * Turns one `callback_query` into a decision, or into nothing: the presser must be on
 * `allowedUserIds`; the data must be a MAC'd id of a stored button of a message about that
 * very request; the button's token is then redeemed like any other link (signature, expiry,
 * single use; channel `chat:telegram`). Every press is answered (`answerCallbackQuery`), so
 * the app stops its spinner; every refusal is audited. Nothing here reads message text: the
 * bot never decides from what someone (an agent with a Telegram account) writes to it.
 */
export class TelegramPresses {
  private refusals = { start: 0, count: 0, suppressed: 0 };

  constructor(
    private readonly d: {
      getConfig: () => TelegramConfig;
      api: TelegramApi;
      buttons: ChatButtons;
      store: Pick<ChatButtonsRepository, 'message'>;
      decider: Pick<LinkDecider, 'redeemAction'>;
      audit: (type: string, fields: AuditFields) => Promise<void>;
      /** Told who pressed before the decision is made, so its message edit can say so. */
      pressing: (requestId: string, user: string) => void;
      log: (message: string, error?: unknown) => void;
      now: () => number;
    },
  ) {}

  async handle(q: TelegramCallbackQuery): Promise<void> {
    let answer = 'Something went wrong; try the dashboard.';
    try {
      answer = await this.decide(q);
    } finally {
      await this.d.api
        .answerCallbackQuery({ callback_query_id: q.id, text: answer })
        .catch((e: unknown) => this.d.log('telegram answerCallbackQuery', e));
    }
  }

  private async decide(q: TelegramCallbackQuery): Promise<string> {
    const user = telegramUserLabel(q.from);
    if (!this.d.getConfig().allowedUserIds.includes(String(q.from.id)))
      return this.refuse('not_allowed_user', user);
    const button = this.d.buttons.resolve((q.data ?? '').slice(0, 128));
    if (!button.ok) return this.refuse(button.reason, user);
    if (button.decision === TEST_DECISION) return 'Buttons work: you may decide requests here.';
    const posted = this.d.store.message('telegram', button.requestId);
    const pressedOn = q.message;
    if (
      posted &&
      (!pressedOn ||
        posted.messageId !== String(pressedOn.message_id) ||
        posted.chatId !== String(pressedOn.chat.id))
    )
      return this.refuse('other_request', user, button.requestId);
    this.d.pressing(button.requestId, user);
    const outcome = await this.d.decider.redeemAction(button.token, 'chat');
    return this.answered(outcome, button, user);
  }

  private async answered(
    outcome: LinkOutcome,
    button: { id: string; requestId: string; decision: string },
    user: string,
  ): Promise<string> {
    if (outcome.kind === 'refused') return REFUSED_TEXT[outcome.reason] ?? 'Refused.';
    if (!outcome.byThisLink) return `Already ${outcome.request.status.replace('_', ' ')}.`;
    this.d.buttons.used(button.id, user);
    await this.d.audit('chat.decided', {
      requestId: button.requestId,
      data: { app: 'telegram', user, decision: button.decision },
    });
    return button.decision === 'deny' ? 'Denied.' : 'Approved.';
  }

  /**
   * Audits a press that decided nothing (at most {@link REFUSAL_AUDITS_PER_MINUTE} a minute,
   * as for links: anyone can press a button in a group or spam the bot, and must not bury the
   * audit trail; the next entry says how many were only counted), and says why to the presser.
   */
  private async refuse(reason: string, user: string, requestId?: string): Promise<string> {
    const now = this.d.now();
    const w = this.refusals;
    if (now - w.start >= 60_000) {
      w.start = now;
      w.count = 0;
    }
    if (w.count < REFUSAL_AUDITS_PER_MINUTE) {
      w.count++;
      const suppressed = w.suppressed;
      w.suppressed = 0;
      await this.d.audit('chat.refused', {
        ...(requestId ? { requestId } : {}),
        data: {
          app: 'telegram',
          reason,
          user,
          ...(suppressed ? { suppressedBefore: suppressed } : {}),
        },
      });
    } else w.suppressed++;
    return REFUSED_TEXT[reason] ?? 'Refused.';
  }
}
