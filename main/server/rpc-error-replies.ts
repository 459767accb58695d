import { ZodError } from 'zod';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { fieldProblems } from '../../shared/protocol/validate';

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Why a write failed, as `data.reason` of its -32603 (docs/protocol.md, Errors). */
export type StorageFailureReason = 'DISK_FULL' | 'IO_ERROR';

/**
 * The wire error for a write that SQLite refused (better-sqlite3 puts SQLite's extended
 * result code in `code`), or `undefined` for any other error. Every transport maps failed
 * writes here: the agent socket through {@link toRpcError}, the admin service (HTTP, IPC,
 * socket) when it invokes a handler.
 */
export function storageFailure(error: unknown): GatehouseError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL') {
    return new GatehouseError(
      ErrorCode.InternalError,
      'the disk is full: nothing was recorded; free some disk space and try again',
      { reason: 'DISK_FULL' satisfies StorageFailureReason },
    );
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new GatehouseError(
      ErrorCode.InternalError,
      `the database could not be written (${code}): nothing was recorded; check the disk and try again`,
      { reason: 'IO_ERROR' satisfies StorageFailureReason, sqlite: code },
    );
  }
  return undefined;
}

/**
 * Turns anything thrown by a handler into the error object every transport sends (socket
 * JSON-RPC, Electron IPC, dashboard HTTP): a GatehouseError keeps its code, message and
 * data; a failed write becomes its storage failure; a ZodError becomes -32602 with the fields;
 * anything else is logged here and goes out as a bare "internal error", because its message
 * may name files, SQL or other internals the other side has no business reading.
 */
export function toRpcError(error: unknown): RpcErrorObject {
  const failedWrite = error instanceof GatehouseError ? undefined : storageFailure(error);
  if (failedWrite) error = failedWrite;
  if (error instanceof GatehouseError) {
    return {
      code: error.code,
      message: error.message,
      data: error.data,
    };
  }
  if (error instanceof ZodError) {
    return { code: ErrorCode.InvalidParams, message: 'invalid params', data: fieldProblems(error) };
  }
  console.error('gatehouse: internal error:', error);
  return { code: ErrorCode.InternalError, message: 'internal error' };
}
