import type { OutgoingNotification } from './types';

/**
 * The message "Send test notification" and `gatehouse ntfy setup` send: no request, no
 * buttons, just proof that the channel reaches the person. It carries no item, so no channel
 * lays it out as a request.
 */
export const testNotification = (id: string): OutgoingNotification => ({
  id,
  urgency: 'normal',
  title: 'Gatehouse is connected',
  body: 'Requests that ask for you will arrive here with Approve and Deny buttons.',
  items: [],
});
