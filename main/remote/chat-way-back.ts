import type { ChannelId } from '../../shared/settings/notifications';

export interface WayBackState {
  up: boolean;
  error?: string;
}

/** Where a way back's state goes: the notifier's channel health (main/notify/dispatcher.ts). */
export interface WayBackSink {
  wayBack(channel: ChannelId, state: WayBackState): void;
}

/**
 * The chat apps' ways back start before the notifier whose health shows them (the notifier
 * posts their buttons), so their states are kept here and handed over once it is attached.
 */
export class ChatWayBackHealth {
  private readonly last = new Map<ChannelId, WayBackState>();
  private sink: WayBackSink | undefined;

  /** The callback a chat app's way back reports to. */
  reporter(channel: ChannelId): (state: WayBackState) => void {
    return (state) => {
      this.last.set(channel, state);
      this.sink?.wayBack(channel, state);
    };
  }

  attach(sink: WayBackSink): void {
    this.sink = sink;
    for (const [channel, state] of this.last) sink.wayBack(channel, state);
  }
}
