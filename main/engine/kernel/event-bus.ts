import type { GatehouseEvent } from '../../../shared/events';

export type EventListener = (event: GatehouseEvent) => void;

/**
 * In-process publish/subscribe for committed changes. The engine publishes only after the
 * SQLite transaction that made the change has committed, so a listener never sees a change
 * that a crash could take back.
 */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  publish(event: GatehouseEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        // A failing consumer (a notifier channel, a closed stream) must not stop the others.
        console.error(`gatehouse: event listener failed on ${event.type}:`, error);
      }
    }
  }
}
