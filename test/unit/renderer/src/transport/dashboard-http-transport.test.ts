import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GatehouseEvent } from '../../../../../shared/events';
import { createGatehouseApi } from '../../../../../shared/gatehouse-api';
import { ErrorCode, GatehouseError } from '../../../../../shared/protocol/errors';
import {
  adminMethods,
  isAdminMethod,
  type AdminMethod,
  type AdminParams,
  type AdminResult,
} from '../../../../../shared/protocol/method-map';
import { parseParams } from '../../../../../shared/protocol/validate';
import type { AdminService } from '../../../../../main/server/admin-port';
import { DashboardServer } from '../../../../../main/server/dashboard-server';
import { connectionStatus } from '../../../../../renderer/src/transport/connection';
import { createHttpTransport } from '../../../../../renderer/src/transport/http-transport';

// The dashboard's browser-side transport against the real loopback server, in Node (which
// has fetch and web streams): calls, errors, the event stream and its reconnect.

const SECRET = 'transport-secret';

/** An admin service that validates like the real one and lets the test publish events. */
class EchoAdmin implements AdminService {
  readonly listeners = new Set<(event: GatehouseEvent) => void>();
  async invoke<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>> {
    return (await this.invokeUnchecked(method, params)) as AdminResult<K>;
  }
  async invokeUnchecked(method: string, params: unknown): Promise<unknown> {
    if (!isAdminMethod(method)) throw new GatehouseError(ErrorCode.MethodNotFound, 'unknown');
    const parsed = parseParams(adminMethods[method].params, params);
    if (method === 'settings.get') return { settings: { echo: parsed } };
    throw new GatehouseError(ErrorCode.NotFound, `${method} is not in this fake`);
  }
  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  /** Publishes anything, even what the schema refuses, as a buggy engine might. */
  emit(event: unknown): void {
    for (const l of this.listeners) l(event as GatehouseEvent);
  }
}

/** Resolves once `predicate` holds for the connection state (event-driven, no timer). */
function whenConnection(predicate: (state: string) => boolean): Promise<void> {
  if (predicate(connectionStatus.current)) return Promise.resolve();
  return new Promise((resolve) => {
    const off = connectionStatus.subscribe((state) => {
      if (predicate(state)) {
        off();
        resolve();
      }
    });
  });
}

describe('dashboard HTTP transport', () => {
  let dir: string;
  let admin: EchoAdmin;
  let server: DashboardServer;
  let port: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-transport-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    admin = new EchoAdmin();
    server = new DashboardServer({
      admin,
      staticDir: dir,
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
    });
    ({ port } = await server.start());
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = (secret = SECRET) =>
    createGatehouseApi(
      createHttpTransport({ secret, baseUrl: `http://127.0.0.1:${port}/`, maxRetryMs: 50 }),
    );

  it('calls admin methods and turns error answers into GatehouseErrors', async () => {
    const gh = api();
    expect(await gh.getSettings()).toEqual({ settings: { echo: {} } });
    const bad = await gh.decide({ requestId: '', decision: 'approve' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(GatehouseError);
    expect((bad as GatehouseError).code).toBe(ErrorCode.InvalidParams);
    expect((bad as GatehouseError).data).toEqual([expect.objectContaining({ path: 'requestId' })]);
    const missing = await gh.getRequest('req-1').catch((e: unknown) => e);
    expect((missing as GatehouseError).code).toBe(ErrorCode.NotFound);

    const refused = await api('wrong')
      .getStatus()
      .catch((e: unknown) => e);
    expect((refused as GatehouseError).code).toBe(ErrorCode.Unauthorized);
    expect(connectionStatus.current).toBe('unauthorized');
  });

  it('streams valid events, drops invalid ones, and closes the stream with the last listener', async () => {
    const gh = api();
    const received: GatehouseEvent[] = [];
    let arrived: () => void = () => undefined;
    const off = gh.onEvent((e) => {
      received.push(e);
      arrived();
    });
    await whenConnection((s) => s === 'live');
    expect(admin.listeners.size).toBe(1);

    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const next = new Promise<void>((resolve) => (arrived = resolve));
    admin.emit({ type: 'request.created', request: { requestId: 'broken' } });
    admin.emit({ type: 'guard.reset', breaker: 'provider:openai' });
    await next;
    expect(received).toEqual([{ type: 'guard.reset', breaker: 'provider:openai' }]);
    expect(logged).toHaveBeenCalledWith(
      'gatehouse: event does not match its schema',
      expect.anything(),
    );
    logged.mockRestore();

    off();
    await expect.poll(() => admin.listeners.size).toBe(0);
  });

  it('reconnects after the server went away, and counts the comeback', async () => {
    const gh = api();
    const received: GatehouseEvent[] = [];
    let arrived: () => void = () => undefined;
    const off = gh.onEvent((e) => {
      received.push(e);
      arrived();
    });
    await whenConnection((s) => s === 'live');
    const livesBefore = connectionStatus.liveCount;

    await server.close();
    await whenConnection((s) => s === 'reconnecting');
    server = new DashboardServer({
      admin,
      staticDir: dir,
      host: '127.0.0.1',
      port,
      secret: SECRET,
    });
    await server.start();
    await whenConnection((s) => s === 'live');
    expect(connectionStatus.liveCount).toBe(livesBefore + 1);

    const next = new Promise<void>((resolve) => (arrived = resolve));
    admin.emit({ type: 'guard.reset', breaker: 'after-restart' });
    await next;
    expect(received).toEqual([{ type: 'guard.reset', breaker: 'after-restart' }]);
    off();
  });
});
