import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-body';

/**
 * A local ntfy server for tests, written from ntfy's documentation (docs.ntfy.sh "Publishing"
 * and "Subscribing → JSON stream"): the parts Gatehouse uses and nothing more.
 *
 * - `POST /` with a JSON body `{topic, title, message, priority, tags, click, actions}`
 *   publishes ("Publish as JSON"); the answer is the message as JSON.
 * - `POST|PUT /<topic>` publishes the body as the message text (what an `http` action button
 *   pointed at a topic URL does).
 * - `GET /<topic>/json[?since=<id>|<unix seconds>|all]` streams newline-delimited JSON: an
 *   `open` event, the cached messages after `since`, then each new message as it arrives.
 * - `Authorization: Bearer <token>` is required on every call when `token` is given (a
 *   protected topic); without it the answer is 403, as ntfy's access control answers.
 */
export interface NtfyAction {
  id?: string;
  action: 'view' | 'http' | 'broadcast';
  label: string;
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  clear?: boolean;
}

export interface NtfyMessage {
  id: string;
  time: number;
  expires: number;
  event: 'message';
  topic: string;
  message: string;
  title?: string;
  priority?: number;
  tags?: string[];
  click?: string;
  actions?: NtfyAction[];
}

interface Subscriber {
  topic: string;
  res: ServerResponse;
}

/** Starts the server on 127.0.0.1 on a free port. */
export async function startNtfyServer(options: { token?: string } = {}) {
  const messages: NtfyMessage[] = [];
  const subscribers = new Set<Subscriber>();
  /** The `since` of each subscription, in order: the reconnect test reads it. */
  const subscriptions: { topic: string; since: string | undefined }[] = [];
  const waiters: (() => void)[] = [];
  const changed = (): void => {
    for (const w of waiters.splice(0)) w();
  };

  const publish = (topic: string, fields: Partial<NtfyMessage>): NtfyMessage => {
    const now = Math.floor(Date.now() / 1000);
    const message: NtfyMessage = {
      id: randomBytes(6).toString('hex'),
      time: now,
      expires: now + 12 * 3600,
      event: 'message',
      topic,
      ...fields,
      message: fields.message ?? 'triggered',
    };
    if (message.actions) {
      message.actions = message.actions.map((a) => ({ id: randomBytes(4).toString('hex'), ...a }));
    }
    messages.push(message);
    for (const s of subscribers) {
      if (s.topic === topic) s.res.write(JSON.stringify(message) + '\n');
    }
    changed();
    return message;
  };

  const after = (topic: string, since: string | undefined): NtfyMessage[] => {
    const mine = messages.filter((m) => m.topic === topic);
    if (since === undefined) return [];
    if (since === 'all') return mine;
    const index = mine.findIndex((m) => m.id === since);
    if (index >= 0) return mine.slice(index + 1);
    if (/^\d+$/.test(since)) return mine.filter((m) => m.time >= Number(since));
    return [];
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://ntfy.test');
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 40301, http: 403, error: 'forbidden' }) + '\n');
      return;
    }
    const parts = url.pathname.split('/').filter(Boolean);
    if (req.method === 'POST' && parts.length === 0) {
      const body = JSON.parse(await readBody(req)) as Partial<NtfyMessage> & { topic?: string };
      if (!body.topic) {
        res.writeHead(400).end('{"error":"topic missing"}\n');
        return;
      }
      const { topic, ...fields } = body;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(publish(topic, fields)) + '\n');
      return;
    }
    if ((req.method === 'POST' || req.method === 'PUT') && parts.length === 1) {
      const text = await readBody(req);
      const title = req.headers['title'];
      const message = publish(parts[0]!, {
        message: text,
        ...(typeof title === 'string' ? { title } : {}),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(message) + '\n');
      return;
    }
    if (req.method === 'GET' && parts.length === 2 && parts[1] === 'json') {
      const topic = parts[0]!;
      const since = url.searchParams.get('since') ?? undefined;
      subscriptions.push({ topic, since });
      res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
      const now = Math.floor(Date.now() / 1000);
      res.write(
        JSON.stringify({ id: randomBytes(6).toString('hex'), time: now, event: 'open', topic }) +
          '\n',
      );
      for (const m of after(topic, since)) res.write(JSON.stringify(m) + '\n');
      const sub = { topic, res };
      subscribers.add(sub);
      req.on('close', () => {
        subscribers.delete(sub);
        changed();
      });
      changed();
      return;
    }
    res.writeHead(404).end('{"error":"not found"}\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(JSON.stringify({ error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** Resolves once `check` holds, re-checked on every publish and (un)subscribe. */
  const until = async (check: () => boolean, timeoutMs = 10_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('ntfy test server: condition not met in time');
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200).unref();
      });
    }
  };

  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    subscriptions,
    /** Live subscriptions to `topic`. */
    subscriberCount: (topic: string): number =>
      [...subscribers].filter((s) => s.topic === topic).length,
    until,
    /** Ends every open subscription stream, as a server restart or a network cut would. */
    dropStreams(): void {
      for (const s of subscribers) s.res.destroy();
      subscribers.clear();
      changed();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Presses a notification button as the ntfy app does: `view` opens the URL (a GET), `http`
 * sends a request with the action's method (default POST), URL, headers and body.
 */
export async function pressNtfyButton(action: NtfyAction): Promise<Response> {
  if (!action.url) throw new Error(`action ${action.label} has no url`);
  if (action.action === 'view') return fetch(action.url);
  if (action.action !== 'http') throw new Error(`cannot press a ${action.action} action`);
  return fetch(action.url, {
    method: action.method ?? 'POST',
    headers: action.headers ?? {},
    ...(action.body !== undefined ? { body: action.body } : {}),
  });
}
