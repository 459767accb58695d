/** The notifier's public surface for the composition roots (daemon.ts, shell). */
export { NotificationDispatcher, type NotificationDispatcherDeps } from './dispatcher';
export type { DesktopNotice, DesktopNotifier } from './desktop-port';
export { NodeNotifierDesktop } from './node-notifier-desktop';
export { DesktopChannel } from './desktop-channel';
export { WebhookChannel, type WebhookPayload } from './webhook-channel';
export { EmailChannel } from './email-channel';
export { signWebhookBody, verifyWebhookSignature, SIGNATURE_HEADER } from './webhook-signature';
export type { NotificationChannel, OutgoingNotification, NotificationItem } from './types';
export { createStandardChannels } from './standard-channels';
export { startNotifier } from './start-notifier';
export type { RequestUrl } from './compose';
