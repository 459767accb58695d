import type { GatehouseEvent } from '../shared/events';
import type { AdminTransport } from '../shared/gatehouse-api';
import { IpcChannel, type IpcReply } from '../shared/ipc-channels';
import { ErrorCode, GatehouseError, type ErrorCodeValue } from '../shared/protocol/errors';

/**
 * The only file that touches `ipcRenderer` (eslint enforces it): the admin transport over
 * Electron IPC. The renderer never receives ipcRenderer or an IpcRendererEvent (whose `sender`
 * would hand it the raw ipcRenderer); it sees results, errors and event payloads only.
 */

/** The part of Electron's `ipcRenderer` used here. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** Builds the {@link AdminTransport} the preload hands to `createGatehouseApi`. */
export function createIpcTransport(ipcRenderer: IpcRendererLike): AdminTransport {
  return {
    async invoke(method, params) {
      const reply = await ipcRenderer.invoke(IpcChannel.invoke, method, params);
      if (!isReply(reply)) {
        throw new GatehouseError(ErrorCode.InternalError, 'malformed reply from the main process');
      }
      if (reply.ok) return reply.result as never;
      // The renderer sees this error through contextBridge, which keeps its message (the UI
      // shows it) but drops `code` and `data`; preload-side callers keep all three.
      throw new GatehouseError(
        reply.error.code as ErrorCodeValue,
        reply.error.message,
        reply.error.data,
      );
    },
    subscribe(listener) {
      const onMessage = (_event: unknown, payload: unknown) => listener(payload as GatehouseEvent);
      ipcRenderer.on(IpcChannel.event, onMessage);
      return () => {
        ipcRenderer.removeListener(IpcChannel.event, onMessage);
      };
    },
  };
}

function isReply(value: unknown): value is IpcReply {
  if (value === null || typeof value !== 'object' || !('ok' in value)) return false;
  if (value.ok === true) return true;
  return (
    value.ok === false &&
    'error' in value &&
    typeof value.error === 'object' &&
    value.error !== null &&
    'code' in value.error &&
    typeof value.error.code === 'number' &&
    'message' in value.error &&
    typeof value.error.message === 'string'
  );
}
