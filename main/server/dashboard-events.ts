import { replyJson } from '../../shared/json-numbers';
import type { ServerResponse } from 'node:http';
import type { GatehouseEvent } from '../../shared/events';

/** How often an idle stream gets a comment line, so proxies and the client see it alive. */
export const HEARTBEAT_MS = 15_000;

/**
 * One open Server-Sent-Events stream of engine events. The first frame is a `ready` event,
 * sent once the subscription is in place, so a client knows from then on it misses nothing.
 */
export class EventStream {
  private readonly heartbeat: NodeJS.Timeout;
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    subscribe: (listener: (event: GatehouseEvent) => void) => () => void,
    private readonly onClose: (stream: EventStream) => void,
  ) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    this.unsubscribe = subscribe((event) => this.send('message', event));
    this.send('ready', { ok: true });
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), HEARTBEAT_MS);
    this.heartbeat.unref();
    res.on('close', () => this.close());
  }

  private send(name: string, data: unknown): void {
    // JSON never contains a raw newline, so one `data:` line carries the whole event.
    this.write(`event: ${name}\ndata: ${replyJson(data)}\n\n`);
  }

  private write(chunk: string): void {
    if (!this.closed) this.res.write(chunk);
  }

  /** Ends the stream and drops the subscription; safe to call more than once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.res.end();
    this.onClose(this);
  }
}
