import { readFileSync } from 'node:fs';
import {
  request as httpRequest,
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:net';

type Pages = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

export interface RemoteServerOptions {
  /** The decision pages (link-routes.ts); nothing else is served here. */
  pages: Pages;
  bind: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** `dashboard.remote.publicUrl`: only requests with its host are answered. Empty: bind:port. */
  publicUrl: string;
  /** PEM files; both set: HTTPS. */
  tls?: { cert: string; key: string };
  /**
   * The loopback dashboard's origin (`http://127.0.0.1:PORT`) when `dashboard.remote.dashboard`
   * is on: every other path is passed to it (see {@link forwardToDashboard}).
   */
  dashboardOrigin?: string;
}

/** A start that cannot go on, said in one line naming the setting to change. */
export class RemoteListenerError extends Error {}

/**
 * The remote listener (`dashboard.remote`, opt-in): the decision pages for a phone that
 * reaches this machine over Tailscale, a LAN or the person's own reverse proxy. It serves
 * only `/d/…` — no dashboard, no admin API — and answers only requests whose Host is the one
 * of `publicUrl` (or bind:port when that is empty), so a name that rebinds to this address
 * gets nothing. With a certificate and key it speaks HTTPS.
 */
export class RemoteLinkServer {
  private server: Server | undefined;
  private allowedHosts = new Set<string>();

  constructor(private readonly o: RemoteServerOptions) {}

  get secure(): boolean {
    return Boolean(this.o.tls);
  }

  /** Starts listening; resolves with the URL the listener answers at. */
  async start(): Promise<{ url: string; port: number }> {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((error: unknown) => {
        console.error('gatehouse: remote link request failed:', error);
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('internal error\n');
        } else res.destroy();
      });
    };
    let server: Server;
    if (this.o.tls) {
      let cert: Buffer;
      let key: Buffer;
      try {
        cert = readFileSync(this.o.tls.cert);
        key = readFileSync(this.o.tls.key);
      } catch (error) {
        throw new RemoteListenerError(
          `cannot read dashboard.remote.tls.cert / .key: ${(error as Error).message}`,
        );
      }
      server = createHttpsServer({ cert, key }, handler);
    } else server = createHttpServer(handler);
    this.server = server;
    await new Promise<void>((resolveListen, reject) => {
      const onError = (error: NodeJS.ErrnoException) =>
        reject(
          new RemoteListenerError(
            error.code === 'EADDRINUSE'
              ? `remote listener port ${this.o.port} on ${this.o.bind} is in use: set dashboard.remote.port to a free port`
              : `remote listener cannot listen on ${this.o.bind}:${this.o.port} (${error.code ?? error.message}): check dashboard.remote.bind and dashboard.remote.port`,
          ),
        );
      server.once('error', onError);
      server.listen(this.o.port, this.o.bind, () => {
        server.off('error', onError);
        resolveListen();
      });
    });
    const port = (server.address() as AddressInfo).port;
    const hostPort = `${this.o.bind.includes(':') ? `[${this.o.bind}]` : this.o.bind}:${port}`;
    const url = `${this.secure ? 'https' : 'http'}://${hostPort}/`;
    this.allowedHosts = new Set([hostOf(this.o.publicUrl || url)]);
    return { url, port };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((done) => {
      server.close(() => done());
      (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  }

  /** The origin browsers name in `Origin` for pages served here. */
  private publicOrigin(): string {
    const [host] = this.allowedHosts;
    return `${this.o.publicUrl ? new URL(this.o.publicUrl).protocol : this.secure ? 'https:' : 'http:'}//${host}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (this.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
    const host = (req.headers.host ?? '').toLowerCase();
    if (!this.allowedHosts.has(host)) {
      res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('host not served here\n');
      return;
    }
    const path = new URL(req.url ?? '/', 'http://remote.invalid').pathname;
    if (await this.o.pages(req, res, path)) return;
    if (this.o.dashboardOrigin) {
      forwardToDashboard(req, res, this.o.dashboardOrigin, this.publicOrigin());
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
  }
}

/**
 * The Host header a browser sends for this URL: host and port, the default port left out,
 * lowercase.
 */
export function hostOf(url: string): string {
  return new URL(url).host.toLowerCase();
}

/** True for an address only this machine can reach. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  return a === 'localhost' || a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

/**
 * Passes a request to the loopback dashboard, as if made there: its Host becomes the
 * dashboard's, and an `Origin` of this listener's public origin becomes the dashboard's
 * origin (any other Origin is passed on unchanged, so the dashboard still refuses a
 * cross-site call). The dashboard then checks the secret or session cookie as on loopback;
 * responses, the event stream included, are streamed back.
 */
export function forwardToDashboard(
  req: IncomingMessage,
  res: ServerResponse,
  dashboardOrigin: string,
  publicOrigin: string,
): void {
  const target = new URL(dashboardOrigin);
  const headers = { ...req.headers, host: target.host };
  if (headers.origin?.toLowerCase() === publicOrigin.toLowerCase()) headers.origin = target.origin;
  const upstream = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) {
      res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('the dashboard is not answering\n');
    } else res.destroy();
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}
