import type { AuditFields } from '../engine/kernel/unit-of-work';
import type { ChatLinkChannel } from '../../shared/remote';
import type { ChatButtonsRepository } from '../store/chat-buttons-repository';
import { TEST_DECISION, type ChatButtons } from './chat-buttons';
import type { LinkDecider, LinkOutcome } from './link-decider';

/** What a person is told in the chat app when a press decides nothing. */
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

/** One button press as a chat app delivered it, in the app's own ids. */
export interface ChatPress {
  /** The presser's user id in the app, matched against the channel's `allowedUserIds`. */
  userId: string;
  /** How the presser is shown and recorded (`@name (id)`). */
  userLabel: string;
  /** The button's data as the app carried it back (`<id>.<mac>`): Telegram's `callback_data`, Slack's `value`, Discord's `custom_id`. */
  data: string;
  /** The message the button was pressed on, when the app says (it must be the request's own). */
  message?: { chatId: string; messageId: string };
}

/** What came of a press: the words for the presser, and whether it made the decision. */
export interface PressResult {
  text: string;
  /** Set when this press decided its request. */
  decided?: LinkOutcome & { kind: 'decided' };
  /** Why the press decided nothing, when it did not. */
  refused?: string;
  /** The request the button named, once the press got as far as redeeming it. */
  requestId?: string;
}

/**
 * Turns one press of a chat app's button into a decision, or into nothing, the same way for
 * every app: the presser must be on the channel's allow-list; the data must be a MAC'd id of a
 * stored button of this app, not past its expiry; when the request's message is known, the
 * press must come from it; the button's token is then redeemed like any other link
 * (signature, expiry, single use; channel `chat:<app>`). Every refusal is audited
 * (`chat.refused`), every decision too (`chat.decided`). Nothing here reads message text: a
 * bot never decides from what someone (an agent with an account in the app) writes to it.
 */
export class ChatPresses {
  private refusals = { start: 0, count: 0, suppressed: 0 };
  // Who pressed, for the edit that follows the decision (the decision event comes first).
  private readonly pressers = new Map<string, string>();

  constructor(
    private readonly d: {
      app: ChatLinkChannel;
      allowedUserIds: () => readonly string[];
      buttons: ChatButtons;
      store: Pick<ChatButtonsRepository, 'message'>;
      decider: Pick<LinkDecider, 'redeemAction'>;
      audit: (type: string, fields: AuditFields) => Promise<void>;
      now: () => number;
    },
  ) {}

  /** Who is pressing (or pressed) the button that decides the request, while it is remembered. */
  presser(requestId: string): string | undefined {
    return this.pressers.get(requestId);
  }

  /** Who pressed the button that decided the request, once (the message edit asks). */
  takePresser(requestId: string): string | undefined {
    const user = this.pressers.get(requestId);
    this.pressers.delete(requestId);
    return user;
  }

  async decide(p: ChatPress): Promise<PressResult> {
    const user = p.userLabel;
    if (!this.d.allowedUserIds().includes(p.userId)) return this.refuse('not_allowed_user', user);
    const button = this.d.buttons.resolve(p.data.slice(0, 128));
    if (!button.ok) return this.refuse(button.reason, user);
    if (button.decision === TEST_DECISION)
      return { text: 'Buttons work: you may decide requests here.' };
    const posted = this.d.store.message(this.d.app, button.requestId);
    if (
      posted &&
      (!p.message || posted.messageId !== p.message.messageId || posted.chatId !== p.message.chatId)
    )
      return this.refuse('other_request', user, button.requestId);
    this.pressers.set(button.requestId, user);
    const outcome = await this.d.decider.redeemAction(button.token, 'chat');
    const result = await this.answered(outcome, button, user);
    // A press that decided nothing names no presser for the request's edit.
    if (!result.decided && this.pressers.get(button.requestId) === user)
      this.pressers.delete(button.requestId);
    return result;
  }

  private async answered(
    outcome: LinkOutcome,
    button: { id: string; requestId: string; decision: string },
    user: string,
  ): Promise<PressResult> {
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
    this.d.buttons.used(button.id, user);
    await this.d.audit('chat.decided', {
      requestId,
      data: { app: this.d.app, user, decision: button.decision },
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
