import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAllowedHost, secretMatches } from './dashboard-guard';

/** A hook payload is at most 64 KiB of tool input plus the agent's fields. */
export const MAX_HOOK_BODY_BYTES = 1024 * 1024;

/**
 * Answers one agent hook payload: the JSON the agent reads, or undefined for no answer (the
 * agent's own flow goes on). Never throws for a payload it cannot read: that is the relay's
 * fail-closed answer.
 */
export type HookHandler = (
  agent: string,
  payload: string,
  headers: IncomingHttpHeaders,
) => Promise<unknown>;

export interface HookHttpServerOptions {
  port: number;
  secret: string;
  /** Agents served (`POST /hooks/<agent>`); any other path is 404. */
  agents: readonly string[];
  handle: HookHandler;
}

/**
 * Agent hooks over HTTP on loopback (Claude Code's `"type": "http"` hooks): the agent POSTs
 * its hook payload and reads the answer from the response body, so no process starts per
 * tool call. Every request must carry the install's secret (`Authorization: Bearer …`,
 * compared in constant time) and a loopback Host of this port (no DNS rebinding); only POST
 * with a JSON body of at most 1 MiB. A request without the secret gets 401, which an agent
 * with `onFailure: "block"` treats as a block.
 */
export class HookHttpServer {
  private server?: Server | undefined;
  /** The port bound (the one asked for, or the kernel's pick for 0): what Host must name. */
  private port = 0;

  constructor(private readonly o: HookHttpServerOptions) {}

  async start(): Promise<{ port: number }> {
    const server = createServer((req, res) => {
      this.serve(req, res).catch((error: unknown) => {
        console.error('gatehouse: hook request failed:', error);
        if (!res.headersSent) reply(res, 500, { error: 'internal error' });
        else res.destroy();
      });
    });
    // Hooks answer in milliseconds or wait for a person; keep-alive sockets are reused.
    server.keepAliveTimeout = 65_000;
    server.requestTimeout = 0;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return { port: this.port };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (!isAllowedHost(req.headers.host, this.port))
      return reply(res, 403, { error: 'host not allowed' });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!secretMatches(bearer, this.o.secret))
      return reply(res, 401, { error: 'missing or wrong hook secret' });
    const agent = /^\/hooks\/([a-z-]+)$/.exec(
      new URL(req.url ?? '/', 'http://h.invalid').pathname,
    )?.[1];
    if (!agent || !this.o.agents.includes(agent)) return reply(res, 404, { error: 'no such hook' });
    if (req.method !== 'POST') return reply(res, 405, { error: 'POST only' });
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return reply(res, 415, { error: 'JSON only' });
    const body = await readBody(req);
    if (body === undefined) return reply(res, 413, { error: 'payload too large' });
    const answer = await this.o.handle(agent, body, req.headers);
    reply(res, 200, answer ?? {});
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The body as text, or undefined past the limit (the rest is not read). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_HOOK_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
