import type { ChannelHealth, ChannelWayBack } from '../../shared/protocol/admin-methods';
import type { AttachedNotifier } from '../server/attached-services';

/**
 * The notifier as `status` and the dashboard see it, with each chat app's way back (the
 * connection its presses come over) added to that channel's health: a channel can post and
 * still not hear its buttons (a revoked app token, a dropped connection).
 */
export function withWayBack(
  notifier: AttachedNotifier,
  wayBacks: Record<string, () => ChannelWayBack | undefined>,
): AttachedNotifier {
  return {
    health: (): ChannelHealth[] =>
      notifier.health().map((h) => {
        const wayBack = wayBacks[h.channel]?.();
        return wayBack && h.enabled ? { ...h, wayBack } : h;
      }),
    test: (channel) => notifier.test(channel),
  };
}
