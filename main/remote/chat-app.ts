import type { GatehouseEvent } from '../../shared/events';
import { runsShownWhole } from '../notify/compose';
import type { RequestRecord } from '../../shared/domain';
import type { Settings } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import type { ChatLinkChannel, LinkDecision } from '../../shared/remote';
import type { AuditFields } from '../engine/kernel/unit-of-work';
import { isProtectedRule } from '../engine/policy/protected-paths';
import type { ChatButtonsRepository } from '../store/chat-buttons-repository';
import { ChatButtons } from './chat-buttons';
import { ChatPresses } from './chat-presses';
import type { DecisionLinks } from './decision-links';
import type { LinkDecider } from './link-decider';

/** What every chat app (Telegram, Slack, Discord) takes from a composition root. */
export interface ChatAppDeps {
  getSettings: () => Settings;
  subscribe: (listener: (event: GatehouseEvent) => void) => () => void;
  links: DecisionLinks;
  decider: Pick<LinkDecider, 'redeemAction'>;
  store: ChatButtonsRepository;
  key: string;
  clock: Clock;
  getRequest: (requestId: string) => Promise<RequestRecord | undefined>;
  audit: (type: string, fields: AuditFields) => Promise<void>;
  log: (message: string, error?: unknown) => void;
  fetch?: typeof fetch;
  initialBackoffMs?: number;
}

/**
 * One app's buttons and its press handling, built the same for every app: buttons stored in
 * the one `chat_buttons` table under this app's name, presses decided for the people on the
 * app's `allowedUserIds`.
 */
export function chatButtonsAndPresses(
  app: ChatLinkChannel,
  o: ChatAppDeps,
  allowedUserIds: () => readonly string[],
): { buttons: ChatButtons; presses: ChatPresses } {
  const now = () => o.clock.now();
  const buttons = new ChatButtons({ app, links: o.links, store: o.store, key: o.key, now });
  const presses = new ChatPresses({
    app,
    allowedUserIds,
    buttons,
    store: o.store,
    decider: o.decider,
    audit: o.audit,
    now,
  });
  return { buttons, presses };
}

/** A button a request's message carries: its label and what pressing it decides. */
export interface DecisionButton {
  label: string;
  decision: LinkDecision;
}

/**
 * The buttons of a request's message, in order: Approve, Deny, and Approve for this session
 * unless the request is about Gatehouse's own files (approved once only: the engine refuses
 * more). Without the request (it could not be read) the session button is left out. A request
 * whose command the message cut to fit gets Deny only: an approval would run a tail the person
 * was never shown (notify/compose.ts, runsShownWhole); the message's link opens it whole.
 */
export function decisionButtons(request: RequestRecord | undefined): DecisionButton[] {
  const deny: DecisionButton = { label: 'Deny', decision: 'deny' };
  if (request && !runsShownWhole(request)) return [deny];
  return [
    { label: 'Approve', decision: 'approve' },
    deny,
    ...(request && !isProtectedRule(request.rule)
      ? [{ label: 'Approve for this session', decision: 'approve_session' as const }]
      : []),
  ];
}
