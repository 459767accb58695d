import type { GatehouseEvent } from '../../shared/events';
import type { AdminMethod, AdminParams, AdminResult } from '../../shared/protocol/method-map';

/**
 * The admin service as every admin transport sees it (socket admin role, Electron IPC,
 * dashboard HTTP). `invokeUnchecked` validates `params` against the method map and throws a
 * GatehouseError (-32601 unknown method, -32602 bad params) on bad input.
 */
export interface AdminService {
  invoke<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>>;
  invokeUnchecked(method: string, params: unknown): Promise<unknown>;
  subscribe(listener: (event: GatehouseEvent) => void): () => void;
}
