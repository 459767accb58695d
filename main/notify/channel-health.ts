import type { ChannelHealth } from '../../shared/protocol/admin-methods';
import type { ChannelId } from '../../shared/settings/notifications';
import { iso, type Clock } from '../../shared/clock';

/**
 * Thrown by a channel that knows it cannot deliver right now (no notification service):
 * recorded as `unavailable`, not logged again (the channel said so once).
 */
export class ChannelUnavailableError extends Error {}

interface Entry {
  lastDeliveryAt?: number;
  lastErrorAt?: number;
  lastError?: string;
  unavailable: boolean;
  /** A chat app's way back (Telegram's poll, Discord's Gateway): up, or failing since when and why. */
  wayBack?: { up: true } | { up: false; since: number; error: string };
}

/** The last delivery and the last error of each channel, for `gatehouse status` and the dashboard. */
export class ChannelHealthTracker {
  private readonly entries = new Map<ChannelId, Entry>();

  constructor(private readonly clock: Clock) {}

  delivered(id: ChannelId): void {
    const e = this.entry(id);
    e.lastDeliveryAt = this.clock.now();
    e.unavailable = false;
  }

  failed(id: ChannelId, error: unknown): void {
    const e = this.entry(id);
    e.lastErrorAt = this.clock.now();
    e.lastError = (error instanceof Error ? error.message : String(error)).slice(0, 300);
    e.unavailable = error instanceof ChannelUnavailableError;
  }

  /**
   * The state of a channel's way back: presses cannot arrive while it fails (a revoked token
   * answers 401 to every poll), though messages may still be posted, so the channel shows
   * `failing` until it is up again.
   */
  wayBack(id: ChannelId, state: { up: boolean; error?: string }): void {
    const e = this.entry(id);
    if (state.up) e.wayBack = { up: true };
    else if (e.wayBack?.up === false) e.wayBack.error = (state.error ?? 'down').slice(0, 300);
    else
      e.wayBack = {
        up: false,
        since: this.clock.now(),
        error: (state.error ?? 'down').slice(0, 300),
      };
  }

  /** One line per channel, in the order given, with whether the settings enable it. */
  report(channels: readonly { id: ChannelId; enabled: boolean }[]): ChannelHealth[] {
    return channels.map(({ id, enabled }) => {
      const e = this.entries.get(id);
      const wayBack = e?.wayBack;
      const down = wayBack?.up === false ? wayBack : undefined;
      const failing =
        down !== undefined ||
        (e?.lastErrorAt !== undefined && (e.lastDeliveryAt ?? -1) < e.lastErrorAt);
      return {
        channel: id,
        enabled,
        state: !enabled
          ? 'disabled'
          : e?.unavailable
            ? 'unavailable'
            : failing
              ? 'failing'
              : e?.lastDeliveryAt !== undefined
                ? 'ok'
                : 'idle',
        ...(e?.lastDeliveryAt !== undefined ? { lastDeliveryAt: iso(e.lastDeliveryAt) } : {}),
        ...(down
          ? { lastErrorAt: iso(down.since), lastError: down.error }
          : e?.lastErrorAt !== undefined
            ? { lastErrorAt: iso(e.lastErrorAt), lastError: e.lastError ?? '' }
            : {}),
        ...(wayBack && enabled
          ? { wayBack: wayBack.up ? ('up' as const) : ('failing' as const) }
          : {}),
      };
    });
  }

  private entry(id: ChannelId): Entry {
    let e = this.entries.get(id);
    if (!e) this.entries.set(id, (e = { unavailable: false }));
    return e;
  }
}
