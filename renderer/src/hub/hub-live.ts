import { HUB_EVENTS_PATH, HubLiveEvent } from '../../../shared/protocol/hub-web-methods';

/** What a view hears: a change (reload what you show), and whether the stream is up. */
export type HubLiveListener = (e: { kind: HubLiveEvent['kind'] | 'down' }) => void;

/**
 * The page's one connection to the hub's live update stream (server-sent events, the session
 * cookie). Views subscribe; each event tells them to reload. The browser reconnects a
 * dropped stream by itself, and the stream's first event (`hello`) makes every view reload,
 * which is the catch-up after a gap. While the stream is down, views fall back to polling.
 */
export class HubLive {
  private readonly listeners = new Set<HubLiveListener>();
  private source: EventSource | undefined;
  private up = false;

  constructor(private readonly baseUrl: string) {}

  /** True while the stream is open: views then do not poll. */
  get connected(): boolean {
    return this.up;
  }

  subscribe(listener: HubLiveListener): () => void {
    this.listeners.add(listener);
    this.start();
    return () => {
      this.listeners.delete(listener);
    };
  }

  close(): void {
    this.source?.close();
    this.source = undefined;
    this.up = false;
  }

  private start(): void {
    if (this.source || typeof EventSource === 'undefined') return;
    const source = new EventSource(new URL(HUB_EVENTS_PATH.slice(1), this.baseUrl));
    this.source = source;
    source.onmessage = (message: MessageEvent<string>) => {
      let event: HubLiveEvent;
      try {
        event = HubLiveEvent.parse(JSON.parse(message.data));
      } catch {
        return;
      }
      if (event.kind === 'hello') this.up = true;
      this.emit(event);
    };
    source.onerror = () => {
      // The browser retries by itself (the stream's `retry`); a refusal (signed out) closes it.
      if (!this.up) return;
      this.up = false;
      this.emit({ kind: 'down' });
    };
  }

  private emit(e: { kind: HubLiveEvent['kind'] | 'down' }): void {
    for (const l of this.listeners) l(e);
  }
}
