import { withoutFloatNoiseDeep } from '../../shared/json-numbers';
import { IpcChannel, type IpcReply } from '../../shared/ipc-channels';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { isAdminMethod } from '../../shared/protocol/method-map';
import type { GatehouseEvent } from '../../shared/events';
import type { AdminService } from '../server/admin-port';
import { toRpcError } from '../server/rpc-error-replies';
import type { IpcSender } from './trusted-sender';

/**
 * The only file that touches `ipcMain` (eslint enforces it). One handler serves every admin
 * method of `adminMethods`: the method name is checked against the map and the params are
 * validated by `admin.invokeUnchecked`, so a method exists once and no handler goes unchecked.
 */

/** What the handler reads from Electron's IpcMainInvokeEvent. */
export interface InvokeEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

/** The part of Electron's `ipcMain` used here. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<IpcReply>,
  ): void;
  removeHandler(channel: string): void;
}

export interface AdminIpcDeps {
  ipcMain: IpcMainLike;
  admin: AdminService;
  /** Returns why a sender is refused, or null when trusted (a TrustedSenderPolicy). */
  checkSender(sender: IpcSender): string | null;
  /** Refused calls are reported here (a log in the app); the caller only sees "unauthorized". */
  onRejected(reason: string, method: unknown): void;
}

/** Registers `gatehouse:invoke`; returns a function that removes it. */
export function registerAdminIpc(deps: AdminIpcDeps): () => void {
  deps.ipcMain.handle(IpcChannel.invoke, async (event, method, params) => {
    const refused = deps.checkSender(senderOf(event));
    if (refused) {
      deps.onRejected(refused, method);
      return failure(new GatehouseError(ErrorCode.Unauthorized, 'untrusted IPC sender'));
    }
    if (typeof method !== 'string' || !isAdminMethod(method)) {
      return failure(
        new GatehouseError(ErrorCode.MethodNotFound, `unknown method: ${String(method)}`),
      );
    }
    try {
      // Rounded at the boundary, as the socket and the dashboard's API do (json-numbers.ts).
      const result = await deps.admin.invokeUnchecked(method, params);
      return { ok: true, result: withoutFloatNoiseDeep(result) };
    } catch (error) {
      return failure(error);
    }
  });
  return () => deps.ipcMain.removeHandler(IpcChannel.invoke);
}

/** Something engine events can be sent to: a window's WebContents. */
export interface EventTarget {
  send(channel: string, event: GatehouseEvent): void;
  isDestroyed(): boolean;
}

/**
 * Forwards every engine event to the windows open at that moment. Windows only ever show our
 * renderer (navigation is denied), so they are the trusted receivers.
 */
export function forwardEvents(admin: AdminService, targets: () => EventTarget[]): () => void {
  return admin.subscribe((event) => {
    for (const target of targets()) {
      if (!target.isDestroyed()) target.send(IpcChannel.event, withoutFloatNoiseDeep(event));
    }
  });
}

function senderOf(event: InvokeEventLike): IpcSender {
  const frame = event.senderFrame;
  return {
    contentsId: event.sender.id,
    frameUrl: frame ? frame.url : null,
    isMainFrame: frame !== null && !frame.parent,
  };
}

/**
 * The same wire error as the socket and HTTP give: a GatehouseError's code and message, and
 * for anything else a generic internal error (its message could name files or internals).
 */
function failure(error: unknown): IpcReply {
  return { ok: false, error: toRpcError(error) };
}
