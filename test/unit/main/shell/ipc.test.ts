import { describe, expect, it, vi } from 'vitest';
import type { GatehouseEvent } from '../../../../shared/events';
import { createGatehouseApi } from '../../../../shared/gatehouse-api';
import { IpcChannel, type IpcReply } from '../../../../shared/ipc-channels';
import { ErrorCode, GatehouseError } from '../../../../shared/protocol/errors';
import {
  forwardEvents,
  registerAdminIpc,
  type InvokeEventLike,
  type IpcMainLike,
} from '../../../../main/shell/ipc-main';
import { TrustedSenderPolicy } from '../../../../main/shell/trusted-sender';
import { createIpcTransport, type IpcRendererLike } from '../../../../preload/ipc-renderer';
import { FakeAdmin, pendingRequest } from './fakes';

const RENDERER = '/opt/Gatehouse app/resources/app.asar/dist/renderer/index.html';
const RENDERER_URL = 'file:///opt/Gatehouse%20app/resources/app.asar/dist/renderer/index.html';
const OWN_ID = 7;

type Handler = (event: InvokeEventLike, ...args: unknown[]) => Promise<IpcReply>;

/** An ipcMain that keeps its handlers, so a test can call them as a renderer would. */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  call(event: InvokeEventLike, ...args: unknown[]): Promise<IpcReply> {
    const handler = this.handlers.get(IpcChannel.invoke);
    if (!handler) throw new Error('no handler');
    return handler(event, ...args);
  }
}

const trustedEvent = (url = `${RENDERER_URL}#request=r1`): InvokeEventLike => ({
  sender: { id: OWN_ID },
  senderFrame: { url, parent: null },
});

function setup() {
  const admin = new FakeAdmin();
  const ipcMain = new FakeIpcMain();
  const rejected: string[] = [];
  const policy = new TrustedSenderPolicy(RENDERER, (id) => id === OWN_ID);
  const dispose = registerAdminIpc({
    ipcMain,
    admin,
    checkSender: (s) => policy.check(s),
    onRejected: (reason) => void rejected.push(reason),
  });
  return { admin, ipcMain, rejected, dispose };
}

describe('gatehouse:invoke in the main process', () => {
  it('serves a trusted sender through the admin service', async () => {
    const { admin, ipcMain } = setup();
    admin.pending = [pendingRequest({ requestId: 'r1' })];
    const reply = await ipcMain.call(trustedEvent(), 'pending.list', {});
    expect(reply).toEqual({ ok: true, result: { requests: admin.pending, total: 1 } });
    expect(admin.callsOf('pending.list')).toEqual([{ order: 'attention', limit: 1000 }]);
  });

  it('rounds float noise at the boundary, as the socket and the dashboard API do', async () => {
    const { admin, ipcMain } = setup();
    admin.settings['budgets.perDayUsd'] = 0.1 + 0.2;
    const reply = await ipcMain.call(trustedEvent(), 'settings.get', { key: 'budgets.perDayUsd' });
    expect(reply).toEqual({ ok: true, result: { settings: {}, value: 0.3 } });
  });

  it.each([
    [
      'another WebContents',
      { sender: { id: 99 }, senderFrame: { url: RENDERER_URL, parent: null } },
      'sender is not a Gatehouse window',
    ],
    [
      'a subframe',
      { sender: { id: OWN_ID }, senderFrame: { url: RENDERER_URL, parent: {} } },
      'sender is a subframe',
    ],
    ['a destroyed frame', { sender: { id: OWN_ID }, senderFrame: null }, 'sender frame is gone'],
    [
      'a web page',
      trustedEvent('https://evil.example/index.html'),
      'sender URL is not a local file',
    ],
    [
      'another local file',
      trustedEvent('file:///tmp/evil.html'),
      'sender URL is not the Gatehouse renderer',
    ],
    [
      'a remote file URL',
      trustedEvent('file://evil-host/opt/x.html'),
      'sender URL is not a local file',
    ],
    ['garbage', trustedEvent('not a url'), 'sender URL is not a URL'],
  ] as [string, InvokeEventLike, string][])(
    'refuses %s without reaching the admin service',
    async (_what, event, reason) => {
      const { admin, ipcMain, rejected } = setup();
      const reply = await ipcMain.call(event, 'decide', { requestId: 'r1', decision: 'approve' });
      expect(reply).toEqual({
        ok: false,
        error: { code: ErrorCode.Unauthorized, message: 'untrusted IPC sender' },
      });
      expect(admin.calls).toEqual([]);
      expect(rejected).toEqual([reason]);
    },
  );

  it('refuses unknown and non-string methods', async () => {
    const { admin, ipcMain } = setup();
    for (const method of ['auth', 'hello', '__proto__', 42, undefined]) {
      const reply = await ipcMain.call(trustedEvent(), method, {});
      expect(reply).toMatchObject({ ok: false, error: { code: ErrorCode.MethodNotFound } });
    }
    expect(admin.calls).toEqual([]);
  });

  it('refuses bad params with the field that is wrong', async () => {
    const { admin, ipcMain } = setup();
    const reply = await ipcMain.call(trustedEvent(), 'decide', {
      requestId: 'r1',
      decision: 'maybe',
    });
    expect(reply).toMatchObject({ ok: false, error: { code: ErrorCode.InvalidParams } });
    if (reply.ok) throw new Error('expected failure');
    expect(reply.error.data).toEqual([expect.objectContaining({ path: 'decision' })]);
    expect(admin.calls).toEqual([]);
  });

  it('passes engine errors on with their code, and other errors as internal without their message', async () => {
    const { admin, ipcMain } = setup();
    const notFound = await ipcMain.call(trustedEvent(), 'decide', {
      requestId: 'nope',
      decision: 'deny',
    });
    expect(notFound).toEqual({
      ok: false,
      error: { code: ErrorCode.NotFound, message: 'request not found' },
    });
    admin.invokeUnchecked = async () => {
      throw new TypeError('boom at /home/someone/.gatehouse/gatehouse.db');
    };
    const internal = await ipcMain.call(trustedEvent(), 'status', {});
    expect(internal).toEqual({
      ok: false,
      error: { code: ErrorCode.InternalError, message: 'internal error' },
    });
    expect(JSON.stringify(internal)).not.toContain('boom');
  });

  it('removes its handler when disposed', () => {
    const { ipcMain, dispose } = setup();
    expect(ipcMain.handlers.has(IpcChannel.invoke)).toBe(true);
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('forwards engine events to live windows only', () => {
    const admin = new FakeAdmin();
    const live = {
      sent: [] as unknown[],
      send: (c: string, e: GatehouseEvent) => void live.sent.push([c, e]),
      isDestroyed: () => false,
    };
    const dead = { send: vi.fn(), isDestroyed: () => true };
    const stop = forwardEvents(admin, () => [live, dead]);
    const event: GatehouseEvent = { type: 'guard.reset', breaker: 'cost_day' };
    admin.emit(event);
    expect(live.sent).toEqual([[IpcChannel.event, event]]);
    expect(dead.send).not.toHaveBeenCalled();
    stop();
    expect(admin.listenerCount).toBe(0);
  });
});

/** Connects the preload's transport straight to the main-side handler, like Electron would. */
function connectedRenderer(event: InvokeEventLike = trustedEvent()) {
  const main = setup();
  const listeners = new Set<(event: unknown, ...args: unknown[]) => void>();
  const ipcRenderer: IpcRendererLike = {
    invoke: (channel, ...args) => {
      expect(channel).toBe(IpcChannel.invoke);
      // Structured cloning, as Electron does, so nothing but plain data crosses.
      return main.ipcMain.call(event, ...structuredClone(args));
    },
    on: (_channel, listener) => listeners.add(listener),
    removeListener: (_channel, listener) => listeners.delete(listener),
  };
  const api = createGatehouseApi(createIpcTransport(ipcRenderer));
  const push = (payload: unknown) => {
    for (const l of listeners) l({ sender: 'the raw ipcRenderer' }, payload);
  };
  return { ...main, api, listeners, push };
}

describe('the preload transport', () => {
  it('calls admin methods through IPC and returns their results', async () => {
    const { api, admin } = connectedRenderer();
    admin.pending = [pendingRequest({ requestId: 'r9' })];
    expect((await api.listPending()).requests.map((r) => r.requestId)).toEqual(['r9']);
    await api.decide({ requestId: 'r9', decision: 'approve', scope: 'session' });
    expect(admin.callsOf('decide')).toEqual([
      { requestId: 'r9', decision: 'approve', scope: 'session' },
    ]);
  });

  it('turns error replies into GatehouseErrors', async () => {
    const { api } = connectedRenderer();
    const error = await api.getRequest('').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('fails calls from an untrusted page', async () => {
    const { api, admin } = connectedRenderer(trustedEvent('https://evil.example/'));
    await expect(api.pause()).rejects.toMatchObject({ code: ErrorCode.Unauthorized });
    expect(admin.calls).toEqual([]);
  });

  it('rejects a malformed reply', async () => {
    const transport = createIpcTransport({
      invoke: async () => ({ nope: true }),
      on: () => {},
      removeListener: () => {},
    });
    await expect(transport.invoke('status', {})).rejects.toMatchObject({
      code: ErrorCode.InternalError,
    });
  });

  it('delivers event payloads (never the IPC event) until unsubscribed', () => {
    const { api, listeners, push } = connectedRenderer();
    const seen: unknown[][] = [];
    const off = api.onEvent((...args) => void seen.push(args));
    const event: GatehouseEvent = { type: 'guard.reset', breaker: 'b' };
    push(event);
    expect(seen).toEqual([[event]]);
    off();
    expect(listeners.size).toBe(0);
    push(event);
    expect(seen).toHaveLength(1);
  });
});

describe('preload/index', () => {
  it('exposes exactly window.gatehouse with the typed API', async () => {
    const exposed: Record<string, unknown> = {};
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
    }));
    await import('../../../../preload/index');
    expect(Object.keys(exposed)).toEqual(['gatehouse']);
    const api = exposed.gatehouse as Record<string, unknown>;
    expect(typeof api.decide).toBe('function');
    expect(typeof api.onEvent).toBe('function');
    expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true);
    vi.doUnmock('electron');
  });
});
