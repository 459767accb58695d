/**
 * The Electron IPC contract between main/shell/ipc-main.ts and preload/ipc-renderer.ts.
 * Two channels only: every admin method travels through `invoke` (method name + params, checked
 * against `adminMethods` on the main side) and every engine event through `event`.
 */
export const IpcChannel = {
  /** renderer → main, `ipcRenderer.invoke(IpcChannel.invoke, method, params)` → {@link IpcReply}. */
  invoke: 'gatehouse:invoke',
  /** main → renderer, one `GatehouseEvent` per message. */
  event: 'gatehouse:event',
} as const;

/** An error as it crosses IPC: plain data, because Electron drops custom Error properties. */
export interface IpcErrorPayload {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * What the main side answers on `invoke`. Errors come back as a value rather than a rejected
 * promise so their JSON-RPC code survives the trip (a rejection keeps only the message).
 */
export type IpcReply = { ok: true; result: unknown } | { ok: false; error: IpcErrorPayload };
