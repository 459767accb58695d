import type { AdminTransport } from '../../../shared/gatehouse-api';
import { GatehouseEvent } from '../../../shared/events';
import { ErrorCode, GatehouseError, type ErrorCodeValue } from '../../../shared/protocol/errors';
import type { AdminMethod, AdminParams, AdminResult } from '../../../shared/protocol/method-map';
import { connectionStatus } from './connection';
import { SseParser } from './sse-parser';
// The header the dashboard server reads the secret from, named once in shared/.
import { DASHBOARD_SECRET_HEADER as SECRET_HEADER } from '../../../shared/protocol/constants';

export interface HttpTransportOptions {
  /** The dashboard secret, sent as a header; without it the session cookie signs each call. */
  secret?: string | undefined;
  /** The page's own URL (or any URL of the dashboard): `api/...` is resolved against it. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Longest wait between reconnect attempts of the event stream. */
  maxRetryMs?: number;
}

interface ErrorBody {
  error?: { code?: number; message?: string; data?: unknown };
  result?: unknown;
}

/**
 * The admin API over the headless dashboard's loopback HTTP: `POST /api/<method>` with JSON,
 * and the event stream as Server-Sent Events from `GET /api/events`.
 *
 * The stream is read with `fetch` rather than `EventSource` because EventSource cannot send
 * a header, and the secret must not travel in the URL (it would land in logs and history).
 * One stream serves every listener; it opens with the first and closes with the last, and
 * reconnects with back-off when it drops (a reconnect, not a polling loop).
 */
export function createHttpTransport(options: HttpTransportOptions): AdminTransport {
  const base = options.baseUrl;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const maxRetryMs = options.maxRetryMs ?? 15_000;
  const listeners = new Set<(event: GatehouseEvent) => void>();
  let abort: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  // With the secret, cookies are not needed; without it, the session cookie is the proof.
  const secretHeader: Record<string, string> = options.secret
    ? { [SECRET_HEADER]: options.secret }
    : {};
  const credentials: 'omit' | 'same-origin' = options.secret ? 'omit' : 'same-origin';

  async function invoke<K extends AdminMethod>(
    method: K,
    params: AdminParams<K>,
  ): Promise<AdminResult<K>> {
    let response: Response;
    try {
      response = await doFetch(new URL(`api/${method}`, base), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...secretHeader },
        body: JSON.stringify(params ?? {}),
        credentials,
      });
    } catch (error) {
      throw new GatehouseError(
        ErrorCode.InternalError,
        `Gatehouse is not reachable: ${String(error)}`,
      );
    }
    const body = (await response.json().catch(() => ({}))) as ErrorBody;
    if (!response.ok || body.error) {
      const code = (body.error?.code ?? ErrorCode.InternalError) as ErrorCodeValue;
      if (response.status === 401) connectionStatus.set('unauthorized');
      throw new GatehouseError(
        code,
        body.error?.message ?? `HTTP ${response.status}`,
        body.error?.data,
      );
    }
    return body.result as AdminResult<K>;
  }

  function deliver(data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      console.error('gatehouse: event is not JSON');
      return;
    }
    const event = GatehouseEvent.safeParse(parsed);
    if (!event.success) {
      console.error('gatehouse: event does not match its schema', event.error.issues);
      return;
    }
    for (const l of [...listeners]) l(event.data);
  }

  async function connect(attempt: number): Promise<void> {
    const controller = new AbortController();
    abort = controller;
    connectionStatus.set(attempt === 0 ? 'connecting' : 'reconnecting');
    try {
      const response = await doFetch(new URL('api/events', base), {
        headers: { ...secretHeader, Accept: 'text/event-stream' },
        signal: controller.signal,
        credentials,
      });
      if (response.status === 401) {
        connectionStatus.set('unauthorized');
        return;
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      const parser = new SseParser();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const frame of parser.push(value)) {
          if (frame.event === 'ready') {
            attempt = 0;
            connectionStatus.set('live');
          } else if (frame.event === 'message') deliver(frame.data);
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      console.warn('gatehouse: event stream dropped:', error);
    }
    if (controller.signal.aborted || listeners.size === 0) return;
    connectionStatus.set('reconnecting');
    const delay = Math.min(maxRetryMs, 500 * 2 ** attempt);
    retryTimer = setTimeout(() => void connect(attempt + 1), delay);
  }

  function disconnect(): void {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    abort?.abort();
    abort = undefined;
  }

  return {
    invoke,
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) void connect(0);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) disconnect();
      };
    },
  };
}
