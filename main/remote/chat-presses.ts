import type { ChatLinkChannel } from '../../shared/remote';
import type { AuditFields } from '../engine/kernel/unit-of-work';
import type { ChatButtonsRepository } from '../store/chat-buttons-repository';
import { TEST_DECISION, type ChatButtons } from './chat-buttons';
import type { LinkDecider, LinkOutcome } from './link-decider';

/** What a person is told in the app when a press decides nothing. */
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

/** One button press as any chat app delivers it. */
export interface ChatPress {
  /** The app's id of the presser (digits for Telegram and Discord). */
  userId: string;
  /** How the presser is shown and recorded: `@name (id)`. */
  user: string;
  /** The button's data: Telegram's `callback_data`, Discord's `custom_id`. */
  data: string;
  /** The message the button was pressed on, when the app says. */
  message?: { chatId: string; messageId: string };
}

/** What came of a press: the words for the presser, and whether it made the decision. */
export interface PressResult {
  text: string;
  /** Set when this press decided its request. */
  decided?: LinkOutcome & { kind: 'decided' };
  /** Set when the press was refused (or decided nothing). */
  refused?: string;
  /** The request the button named, once the press got as far as redeeming it. */
  requestId?: string;
}

/**
 * Turns one press in a chat app into a decision, or into nothing, the same for every app:
 * the presser must be on the channel's allow-list; the data must be a MAC'd id of a stored
 * button of this app, pressed on the message about that very request; the button's token is
 * then redeemed like any other link (signature, expiry, single use; channel `chat:<app>`).
 * Every refusal is audited (`chat.refused`, at most 30 a minute); a decision is audited as
 * `chat.decided` with the presser. Nothing here reads message text: a bot never decides from
 * what someone (an agent with an account in the app) writes to it.
 */
export class ChatPresses {
  private refusals = { start: 0, count: 0, suppressed: 0 };

  constructor(
    private readonly d: {
      app: ChatLinkChannel;
      allowedUserIds: () => readonly string[];
      buttons: ChatButtons;
      store: Pick<ChatButtonsRepository, 'message'>;
      decider: Pick<LinkDecider, 'redeemAction'>;
      audit: (type: string, fields: AuditFields) => Promise<void>;
      /** Told who pressed before the decision is made, so its message edit can say so. */
      pressing: (requestId: string, user: string) => void;
      now: () => number;
    },
  ) {}

  async decide(p: ChatPress): Promise<PressResult> {
    if (!this.d.allowedUserIds().includes(p.userId)) return this.refuse('not_allowed_user', p.user);
    const button = this.d.buttons.resolve(p.data.slice(0, 128));
    if (!button.ok) return this.refuse(button.reason, p.user);
    if (button.decision === TEST_DECISION)
      return { text: 'Buttons work: you may decide requests here.' };
    const posted = this.d.store.message(this.d.app, button.requestId);
    if (
      posted &&
      (!p.message || posted.messageId !== p.message.messageId || posted.chatId !== p.message.chatId)
    )
      return this.refuse('other_request', p.user, button.requestId);
    this.d.pressing(button.requestId, p.user);
    const outcome = await this.d.decider.redeemAction(button.token, 'chat');
    const requestId = button.requestId;
    if (outcome.kind === 'refused')
      return {
        text: REFUSED_TEXT[outcome.reason] ?? 'Refused.',
        refused: outcome.reason,
        requestId,
      };
    if (!outcome.byThisLink)
      return {
        text: `Already ${outcome.request.status.replace('_', ' ')}.`,
        refused: 'already_decided',
        requestId,
      };
    this.d.buttons.used(button.id, p.user);
    await this.d.audit('chat.decided', {
      requestId: button.requestId,
      data: { app: this.d.app, user: p.user, decision: button.decision },
    });
    return {
      text: button.decision === 'deny' ? 'Denied.' : 'Approved.',
      decided: outcome,
      requestId,
    };
  }

  /**
   * Audits a press that decided nothing (at most {@link REFUSAL_AUDITS_PER_MINUTE} a minute,
   * as for links: anyone can press a button in a group or spam the bot, and must not bury the
   * audit trail; the next entry says how many were only counted), and says why to the presser.
   */
  private async refuse(reason: string, user: string, requestId?: string): Promise<PressResult> {
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
          app: this.d.app,
          reason,
          user,
          ...(suppressed ? { suppressedBefore: suppressed } : {}),
        },
      });
    } else w.suppressed++;
    return { text: REFUSED_TEXT[reason] ?? 'Refused.', refused: reason };
  }
}
