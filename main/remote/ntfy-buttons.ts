import type { DashboardSettings } from '../../shared/settings/dashboard';
import type { NtfyAction, NtfyButtons, NtfyButtonsFor, NtfyConfig } from '../notify/ntfy-channel';
import type { DecisionLinks } from './decision-links';

const LABELS = { approve: 'Approve', deny: 'Deny' } as const;

/**
 * The Approve and Deny buttons of an ntfy notification, by the way back the settings choose:
 *
 * - reply topic (`notifications.channels.ntfy.replyTopic` set): each button is an `http`
 *   action that publishes a signed single-use token, bound to the request and that one
 *   decision, to the reply topic on the same ntfy server; Gatehouse, subscribed to it
 *   outbound, redeems it (ntfy-replies.ts). Works for a Gatehouse the phone cannot reach.
 * - direct (`dashboard.remote.enabled`): each button POSTs to the signed decision URL
 *   (`…/d/<token>/act`) on the remote listener.
 * - neither: no buttons; the notification informs, and the click opens the phone page when
 *   the remote listener serves it.
 *
 * A request whose command was cut to fit the notification gets Deny only: Approve would run a
 * tail the person was never shown (notify/compose.ts, runsShownWhole).
 */
export function ntfyButtons(o: {
  links: DecisionLinks;
  dashboard: () => DashboardSettings;
}): NtfyButtonsFor {
  return (requestId: string, config: NtfyConfig, offer): NtfyButtons | undefined => {
    const remote = o.dashboard().remote.enabled && o.links.baseUrl() !== undefined;
    const click = remote ? { click: o.links.decisionLinkFor(requestId, 'ntfy') } : {};
    const action = (decision: 'approve' | 'deny'): NtfyAction => {
      const issued = o.links.actionLinkFor(requestId, 'ntfy', decision);
      if (config.replyTopic) {
        return {
          action: 'http',
          label: LABELS[decision],
          url: `${config.server.replace(/\/+$/, '')}/${config.replyTopic}`,
          method: 'POST',
          // The reply topic may be as protected as the alert topic.
          ...(config.token ? { headers: { Authorization: `Bearer ${config.token}` } } : {}),
          body: issued.token,
          clear: true,
        };
      }
      return {
        action: 'http',
        label: LABELS[decision],
        url: issued.url,
        method: 'POST',
        clear: true,
      };
    };
    if (!config.replyTopic && !remote)
      return Object.keys(click).length ? { ...click, actions: [] } : undefined;
    return {
      ...click,
      actions: offer.approve ? [action('approve'), action('deny')] : [action('deny')],
    };
  };
}
