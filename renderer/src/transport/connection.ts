/** Whether the live event stream is flowing. The Electron preload's stream is always live. */
export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

type Listener = (state: ConnectionState) => void;

/**
 * The state of the event stream, shared between the HTTP transport (which sets it) and the
 * UI (which shows it and reloads its lists when the stream comes back after a gap).
 */
class ConnectionStatus {
  private state: ConnectionState = 'live';
  private lives = 0;
  private readonly listeners = new Set<Listener>();

  get current(): ConnectionState {
    return this.state;
  }

  /** How many times the stream has become live; views reload when it grows (after a gap). */
  get liveCount(): number {
    return this.lives;
  }

  set(state: ConnectionState): void {
    if (state === this.state) return;
    this.state = state;
    if (state === 'live') this.lives += 1;
    for (const l of [...this.listeners]) l(state);
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

export const connectionStatus = new ConnectionStatus();
