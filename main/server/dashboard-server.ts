import { replyJson } from '../../shared/json-numbers';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '../../shared/protocol/errors';
import { isAdminMethod } from '../../shared/protocol/method-map';
import { toRpcError } from './rpc-error-replies';
import type { AdminService } from './admin-port';
import { EventStream } from './dashboard-events';
import {
  SECRET_HEADER,
  SECURITY_HEADERS,
  isAllowedHost,
  isSameOrigin,
  secretMatches,
} from './dashboard-guard';
import type { DashboardSessions } from './dashboard-sessions';
import { serveStatic } from './dashboard-static';

/** Largest accepted JSON body of an API call. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface DashboardServerOptions {
  /** The admin service every call goes to; it validates params and does the work. */
  admin: AdminService;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  /** Loopback only; the option exists so tests and callers say it explicitly. */
  host?: '127.0.0.1';
  /** 0 picks a free port. */
  port?: number;
  /** The per-start secret; a fresh random one when omitted (and `sessions` is not given). */
  secret?: string;
  /**
   * The kept secret and the browser sessions it signs (cookie sign-in, see
   * dashboard-sessions.ts); when given, it is the secret.
   */
  sessions?: DashboardSessions;
  /**
   * Pages served beside the dashboard (the decision links' phone pages): called for every
   * request that passed the Host check and is not the API; true when it answered.
   */
  pages?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
}

/** Where a started dashboard listens. */
export interface DashboardAddress {
  /** The URL to open, with the secret in the fragment (never sent to the server by a browser). */
  url: string;
  /** The same URL without the secret, for logs. */
  origin: string;
  port: number;
}

/** HTTP status for each protocol error code a call may end with. */
const STATUS_BY_CODE: Partial<Record<number, number>> = {
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.InvalidParams]: 400,
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.ParseError]: 400,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.AgentPaused]: 409,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.FrameTooLarge]: 413,
  // A write the disk refused (data.reason DISK_FULL or IO_ERROR): the server's fault.
  [ErrorCode.InternalError]: 500,
};

/**
 * The headless dashboard: serves the built React UI and the admin API on loopback.
 *
 * - Every request must carry a Host of `127.0.0.1:<port>` or `localhost:<port>` (defeats DNS
 *   rebinding).
 * - Every `/api/*` request must carry the per-start secret in the `X-Gatehouse-Secret`
 *   header, compared in constant time. A custom header also means a cross-site page cannot
 *   send it without a CORS preflight, which this server never grants.
 * - Admin methods are `POST /api/<method>` with a JSON body only; a GET changes nothing.
 * - `GET /api/events` is the engine's event stream as Server-Sent Events.
 */
export class DashboardServer {
  private readonly admin: AdminService;
  private readonly staticDir: string;
  private readonly host: string;
  private readonly requestedPort: number;
  private readonly fixedSecret: string;
  private readonly sessions: DashboardSessions | undefined;
  private readonly pages: DashboardServerOptions['pages'];
  private readonly streams = new Set<EventStream>();
  private server: Server | undefined;
  private port = 0;

  constructor(options: DashboardServerOptions) {
    this.admin = options.admin;
    this.staticDir = options.staticDir;
    this.host = options.host ?? '127.0.0.1';
    this.requestedPort = options.port ?? 0;
    this.fixedSecret = options.secret ?? randomBytes(32).toString('base64url');
    this.sessions = options.sessions;
    this.pages = options.pages;
  }

  /** The secret the printed URL carries: the kept one when there are sessions. */
  private get secret(): string {
    return this.sessions?.secret() ?? this.fixedSecret;
  }

  /** The URL to open now (secret included): it follows a rotation of the kept secret. */
  url(): string {
    return `http://${this.host}:${this.port}/#secret=${encodeURIComponent(this.secret)}`;
  }

  /** Starts listening; resolves with the URL to open (secret included). */
  async start(): Promise<DashboardAddress> {
    if (this.server) throw new Error('dashboard already started');
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        console.error('gatehouse: dashboard request failed:', error);
        if (!res.headersSent)
          sendJson(res, 500, {
            error: { code: ErrorCode.InternalError, message: 'internal error' },
          });
        else res.destroy();
      });
    });
    this.server = server;
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(this.requestedPort, this.host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    const origin = `http://${this.host}:${this.port}/`;
    return { url: this.url(), origin, port: this.port };
  }

  /** Ends every event stream and stops listening. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const stream of [...this.streams]) stream.close();
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    if (!isAllowedHost(req.headers.host, this.port)) {
      sendJson(res, 403, { error: { code: ErrorCode.Unauthorized, message: 'host not allowed' } });
      return;
    }
    const path = new URL(req.url ?? '/', 'http://dashboard.invalid').pathname;
    if (path === '/auth/session') return this.signIn(req, res);
    if (this.pages && (await this.pages(req, res, path))) return;
    if (path !== '/api' && !path.startsWith('/api/')) {
      await serveStatic(this.staticDir, req, res, path);
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    if (!isSameOrigin(req.headers, this.port)) {
      sendJson(res, 403, {
        error: { code: ErrorCode.Unauthorized, message: 'cross-origin request refused' },
      });
      return;
    }
    if (
      !secretMatches(req.headers[SECRET_HEADER], this.secret) &&
      !this.sessions?.hasSession(req.headers.cookie, this.port)
    ) {
      sendJson(res, 401, {
        error: { code: ErrorCode.Unauthorized, message: 'dashboard secret missing or wrong' },
      });
      return;
    }
    if (path === '/api/events') {
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
      const stream = new EventStream(
        res,
        (l) => this.admin.subscribe(l),
        (s) => this.streams.delete(s),
      );
      this.streams.add(stream);
      return;
    }
    await this.handleCall(req, res, path.slice('/api/'.length));
  }

  /**
   * `POST /auth/session` with the secret header: signs this browser in with a session cookie
   * (the page does it once, with the secret from the printed URL's fragment).
   */
  private signIn(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('Cache-Control', 'no-store');
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    if (!this.sessions) {
      sendJson(res, 404, { error: { code: ErrorCode.NotFound, message: 'no sign-in here' } });
      return;
    }
    if (!isSameOrigin(req.headers, this.port)) {
      sendJson(res, 403, {
        error: { code: ErrorCode.Unauthorized, message: 'cross-origin request refused' },
      });
      return;
    }
    if (!secretMatches(req.headers[SECRET_HEADER], this.secret)) {
      sendJson(res, 401, {
        error: { code: ErrorCode.Unauthorized, message: 'dashboard secret missing or wrong' },
      });
      return;
    }
    res.setHeader('Set-Cookie', this.sessions.newSessionCookie(this.port, false));
    sendJson(res, 200, { result: { signedIn: true } });
  }

  private async handleCall(
    req: IncomingMessage,
    res: ServerResponse,
    rawMethod: string,
  ): Promise<void> {
    // Reads go over POST too: the params are JSON, and no admin method of any kind is
    // reachable by a GET, so a link or an <img> can never decide a request.
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      sendJson(res, 415, {
        error: { code: ErrorCode.InvalidRequest, message: 'expected application/json' },
      });
      return;
    }
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === undefined) {
      sendJson(res, 413, {
        error: {
          code: ErrorCode.FrameTooLarge,
          message: `body larger than ${MAX_BODY_BYTES} bytes`,
        },
      });
      return;
    }
    let params: unknown;
    try {
      params = body.length === 0 ? {} : JSON.parse(body);
    } catch {
      sendJson(res, 400, { error: { code: ErrorCode.ParseError, message: 'body is not JSON' } });
      return;
    }
    let method: string;
    try {
      method = decodeURIComponent(rawMethod);
    } catch {
      method = rawMethod;
    }
    if (!isAdminMethod(method)) {
      // The admin service would say the same; answering here keeps unknown names out of it.
      sendJson(res, 404, {
        error: { code: ErrorCode.MethodNotFound, message: `unknown method ${method}` },
      });
      return;
    }
    try {
      const result = await this.admin.invokeUnchecked(method, params);
      sendJson(res, 200, { result });
    } catch (error) {
      // The one wire-error mapping of every transport: internal errors never leak.
      const wire = toRpcError(error);
      sendJson(res, STATUS_BY_CODE[wire.code] ?? 422, { error: wire });
    }
  }
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.setHeader('Allow', allow);
  sendJson(res, 405, { error: { code: ErrorCode.InvalidRequest, message: `use ${allow}` } });
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const text = replyJson(payload);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** Reads the body as UTF-8, or undefined once it passes `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolveBody(over ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
