import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../http-body';

/** One tool call the scripted model makes: the agent's own tool name and its arguments. */
export interface ToolStep {
  name: string;
  input: Record<string, unknown>;
}

/** A request the server received, for the test to inspect. */
export interface ReceivedRequest {
  method: string;
  /** The path without its query. */
  path: string;
  query: string;
  body: unknown;
}

/** A tool result the agent sent back, with its text flattened. */
export interface ToolResult {
  /** The tool call's id (OpenAI) or the tool's name (Gemini, whose calls have no id). */
  id: string;
  text: string;
}

/**
 * The plumbing every scripted model API on 127.0.0.1 shares: one HTTP server, the requests
 * it received, the script of tool calls for the next conversation. A subclass answers the
 * API's own wire format in `answer`.
 */
export abstract class ScriptedModelServer<Step = ToolStep> {
  readonly requests: ReceivedRequest[] = [];
  protected steps: Step[] = [];
  private server?: Server;
  url = '';

  /** Starts listening on a free loopback port; `url` is its base, with `basePath` after it. */
  async listen(basePath = ''): Promise<this> {
    const server = createServer((req, res) => void this.receive(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`;
    return this;
  }

  /** The tool calls the model makes in the next conversation, in order. */
  script(steps: Step[]): void {
    this.steps = steps;
    this.requests.length = 0;
  }

  /** Every request body as text: to check a secret never reached the model. */
  allRequestText(): string {
    return this.requests.map((r) => JSON.stringify(r.body)).join('\n');
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  protected abstract answer(
    request: ReceivedRequest,
    res: ServerResponse,
    req: IncomingMessage,
  ): void;

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: kept as text */
    }
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    const request = { method: req.method ?? 'GET', path, query, body };
    this.requests.push(request);
    this.answer(request, res, req);
  }
}

export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Opens a server-sent event stream; each `data` line is one JSON chunk. */
export function openEventStream(res: ServerResponse): (data: unknown) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

/**
 * Opens a server-sent event stream of named events (Anthropic's and OpenAI Responses'
 * style): each event's data is its fields with `type` set to the event's name.
 */
export function openNamedEventStream(res: ServerResponse): (event: string, data: object) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return (event, data) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}
