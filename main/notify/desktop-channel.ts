import type { DesktopNotifier } from './desktop-port';
import type { NotificationChannel, OutgoingNotification } from './types';

/** The desktop channel: one native notice per notification, through a {@link DesktopNotifier}. */
export class DesktopChannel implements NotificationChannel {
  readonly id = 'desktop' as const;

  constructor(private readonly notifier: DesktopNotifier) {}

  send(n: OutgoingNotification): Promise<void> {
    return this.notifier.show({
      title: n.title,
      body: n.body,
      urgency: n.urgency,
      ...(n.requestId ? { requestId: n.requestId } : {}),
    });
  }
}
