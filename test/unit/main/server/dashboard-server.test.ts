import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestRecord } from '../../../../shared/domain';
import type { GatehouseEvent } from '../../../../shared/events';
import { ErrorCode, GatehouseError } from '../../../../shared/protocol/errors';
import {
  adminMethods,
  isAdminMethod,
  type AdminMethod,
  type AdminParams,
  type AdminResult,
} from '../../../../shared/protocol/method-map';
import { parseParams } from '../../../../shared/protocol/validate';
import type { AdminService } from '../../../../main/server/admin-port';
import { DashboardServer } from '../../../../main/server/dashboard-server';
import {
  DASHBOARD_CSP,
  isAllowedHost,
  secretMatches,
} from '../../../../main/server/dashboard-guard';
import { resolveStaticPath } from '../../../../main/server/dashboard-static';

const SECRET = 'test-secret-0123456789';

const pendingRecord = (id: string): RequestRecord => ({
  requestId: id,
  sessionId: 'ses_1',
  agent: 'builder',
  action: 'git_push',
  description: 'push the branch',
  urgency: 'normal',
  status: 'pending',
  tier: 'ask',
  rule: 'default:git_push',
  ruleReason: 'leaves the sandbox',
  createdAt: new Date(0).toISOString(),
});

/**
 * A small admin service that validates like the real one (through the method map) and keeps
 * a list of pending requests, so the HTTP layer is tested on its own.
 */
class FakeAdmin implements AdminService {
  readonly calls: { method: string; params: unknown }[] = [];
  readonly pending = new Map<string, RequestRecord>([['req_1', pendingRecord('req_1')]]);
  private readonly listeners = new Set<(event: GatehouseEvent) => void>();

  get listenerCount(): number {
    return this.listeners.size;
  }

  async invoke<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>> {
    return (await this.invokeUnchecked(method, params)) as AdminResult<K>;
  }

  async invokeUnchecked(method: string, params: unknown): Promise<unknown> {
    if (!isAdminMethod(method))
      throw new GatehouseError(ErrorCode.MethodNotFound, `unknown method ${method}`);
    const parsed = parseParams(adminMethods[method].params, params);
    this.calls.push({ method, params: parsed });
    if (method === 'pending.list') return { requests: [...this.pending.values()] };
    if (method === 'decide') {
      const p = parsed as { requestId: string; decision: 'approve' | 'deny' };
      const found = this.pending.get(p.requestId);
      if (!found) throw new GatehouseError(ErrorCode.NotFound, 'request not found');
      this.pending.delete(p.requestId);
      const request: RequestRecord = {
        ...found,
        status: p.decision === 'approve' ? 'approved' : 'denied',
      };
      this.emit({ type: 'request.decided', request });
      return { request };
    }
    throw new Error(`fake admin has no ${method}`);
  }

  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(event: GatehouseEvent): void {
    for (const l of this.listeners) l(event);
  }
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP call, so the test controls the Host header (fetch would not let it). */
function call(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const apiHeaders = (port: number, extra: Record<string, string> = {}) => ({
  Host: `127.0.0.1:${port}`,
  'Content-Type': 'application/json',
  'X-Gatehouse-Secret': SECRET,
  ...extra,
});

describe('DashboardServer', () => {
  let dir: string;
  let admin: FakeAdmin;
  let server: DashboardServer;
  let port: number;
  let url: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-dash-'));
    const staticDir = join(dir, 'renderer');
    mkdirSync(join(staticDir, 'assets'), { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Gatehouse</title>');
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'outside.txt'), 'secret file');
    admin = new FakeAdmin();
    server = new DashboardServer({ admin, staticDir, host: '127.0.0.1', port: 0, secret: SECRET });
    ({ url, port } = await server.start());
  });

  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a loopback URL with the secret in the fragment', () => {
    expect(url).toBe(`http://127.0.0.1:${port}/#secret=${SECRET}`);
  });

  it('serves the renderer with a strict CSP and no secret needed', async () => {
    const page = await call(port, { path: '/', headers: { Host: `127.0.0.1:${port}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Gatehouse</title>');
    expect(page.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("default-src 'none'");
    expect(DASHBOARD_CSP).not.toContain('unsafe');
    const asset = await call(port, {
      path: '/assets/app.js',
      headers: { Host: `localhost:${port}` },
    });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('refuses paths that leave the static directory', async () => {
    const reply = await call(port, {
      path: '/..%2foutside.txt',
      headers: { Host: `127.0.0.1:${port}` },
    });
    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain('secret file');
    expect(resolveStaticPath('/srv/r', '/../outside.txt')).toBeUndefined();
    expect(resolveStaticPath('/srv/r', '/assets/a.js')).toBe('/srv/r/assets/a.js');
    expect(resolveStaticPath('/srv/r', '/%2e%2e/%2e%2e/etc/passwd')).toBeUndefined();
  });

  it('refuses a foreign Host header on pages and API alike (DNS rebinding)', async () => {
    for (const host of [
      'evil.example:80',
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
    ]) {
      const page = await call(port, { path: '/', headers: { Host: host } });
      expect(page.status, host).toBe(403);
      const api = await call(port, {
        method: 'POST',
        path: '/api/pending.list',
        headers: { ...apiHeaders(port), Host: host },
        body: '{}',
      });
      expect(api.status, host).toBe(403);
    }
    expect(admin.calls).toHaveLength(0);
    expect(isAllowedHost(undefined, 1)).toBe(false);
    expect(isAllowedHost('LOCALHOST:1', 1)).toBe(true);
  });

  it('requires the secret on every API call and on the event stream', async () => {
    const headers = apiHeaders(port);
    const missing = await call(port, {
      method: 'POST',
      path: '/api/pending.list',
      headers: { Host: headers.Host, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(401);
    const wrong = await call(port, {
      method: 'POST',
      path: '/api/decide',
      headers: { ...headers, 'X-Gatehouse-Secret': `${SECRET}x` },
      body: JSON.stringify({ requestId: 'req_1', decision: 'approve' }),
    });
    expect(wrong.status).toBe(401);
    const stream = await call(port, { path: '/api/events', headers: { Host: headers.Host } });
    expect(stream.status).toBe(401);
    expect(admin.calls).toHaveLength(0);
    expect(admin.pending.has('req_1')).toBe(true);

    const ok = await call(port, { method: 'POST', path: '/api/pending.list', headers, body: '{}' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).result.requests[0].requestId).toBe('req_1');
    expect(secretMatches(['a'], 'a')).toBe(false);
  });

  it('never reaches an admin method on GET, even with the secret', async () => {
    const headers = apiHeaders(port);
    const mutating = Object.entries(adminMethods)
      .filter(([, spec]) => spec.mutates)
      .map(([name]) => name);
    expect(mutating).toEqual(
      expect.arrayContaining(['decide', 'decideMany', 'pause', 'settings.set']),
    );
    // Every method that changes state, and the reads too: none is reachable by a GET.
    for (const method of [...mutating, 'pending.list', 'status']) {
      for (const verb of ['GET', 'HEAD', 'PUT', 'DELETE']) {
        const reply = await call(port, {
          method: verb,
          path: `/api/${method}?requestId=req_1&decision=approve`,
          headers,
        });
        expect(reply.status, `${verb} ${method}`).toBe(405);
        expect(reply.headers.allow).toBe('POST');
      }
    }
    expect(admin.calls).toHaveLength(0);
    expect(admin.pending.has('req_1')).toBe(true);
  });

  it('refuses cross-origin and non-JSON posts', async () => {
    const cross = await call(port, {
      method: 'POST',
      path: '/api/decide',
      headers: apiHeaders(port, { Origin: 'http://evil.example' }),
      body: JSON.stringify({ requestId: 'req_1', decision: 'approve' }),
    });
    expect(cross.status).toBe(403);
    const form = await call(port, {
      method: 'POST',
      path: '/api/decide',
      headers: apiHeaders(port, { 'Content-Type': 'application/x-www-form-urlencoded' }),
      body: 'requestId=req_1&decision=approve',
    });
    expect(form.status).toBe(415);
    expect(admin.pending.has('req_1')).toBe(true);
  });

  it('answers an internal error as a bare 500 "internal error", never with its message', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    admin.invokeUnchecked = async () => {
      throw new TypeError('no such table: secrets at /home/someone/.gatehouse/gatehouse.db');
    };
    const reply = await call(port, {
      method: 'POST',
      path: '/api/status',
      headers: apiHeaders(port),
      body: '{}',
    });
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({
      error: { code: ErrorCode.InternalError, message: 'internal error' },
    });
    expect(reply.body).not.toMatch(/secrets|gatehouse\.db|TypeError/);
    // The person running the daemon still sees what went wrong, in its log.
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it('maps bad params to 400 and unknown methods to 404 with the JSON error', async () => {
    const headers = apiHeaders(port);
    const bad = await call(port, {
      method: 'POST',
      path: '/api/decide',
      headers,
      body: JSON.stringify({ requestId: 'req_1', decision: 'maybe' }),
    });
    expect(bad.status).toBe(400);
    const error = JSON.parse(bad.body).error;
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.data).toEqual([expect.objectContaining({ path: 'decision' })]);
    expect(admin.pending.has('req_1')).toBe(true);

    const unknown = await call(port, {
      method: 'POST',
      path: '/api/auth',
      headers,
      body: '{"token":"x"}',
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe(ErrorCode.MethodNotFound);

    const notJson = await call(port, {
      method: 'POST',
      path: '/api/pending.list',
      headers,
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(ErrorCode.ParseError);

    const missing = await call(port, {
      method: 'POST',
      path: '/api/decide',
      headers,
      body: JSON.stringify({ requestId: 'req_404', decision: 'deny' }),
    });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe(ErrorCode.NotFound);

    const huge = await call(port, {
      method: 'POST',
      path: '/api/pending.list',
      headers,
      body: JSON.stringify({ agent: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(huge.status).toBe(413);
  });

  it('decides on POST and streams the resulting event over SSE', async () => {
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/events`, {
      headers: { 'X-Gatehouse-Secret': SECRET },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += value;
      }
    };
    await readUntil('event: ready');
    expect(admin.listenerCount).toBe(1);

    const decided = await fetch(`http://127.0.0.1:${port}/api/decide`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Gatehouse-Secret': SECRET },
      body: JSON.stringify({ requestId: 'req_1', decision: 'approve' }),
    });
    expect(decided.status).toBe(200);
    const body = (await decided.json()) as { result: { request: RequestRecord } };
    expect(body.result.request.status).toBe('approved');
    await readUntil('request.decided');
    const frame = text.split('\n\n').find((f) => f.includes('request.decided'))!;
    const data = JSON.parse(
      frame
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6),
    );
    expect(data).toMatchObject({
      type: 'request.decided',
      request: { requestId: 'req_1', status: 'approved' },
    });

    controller.abort();
    await reader.cancel().catch(() => undefined);
    await expect.poll(() => admin.listenerCount).toBe(0);
  });

  it('close() ends open event streams', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/events`, {
      headers: { 'X-Gatehouse-Secret': SECRET },
    });
    const reader = response.body!.getReader();
    await reader.read();
    await server.close();
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(admin.listenerCount).toBe(0);
  });
});
