import { ZodError } from 'zod';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { fieldProblems } from '../../shared/protocol/validate';

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Turns anything thrown by a handler into a JSON-RPC error object. */
export function toRpcError(error: unknown): RpcErrorObject {
  if (error instanceof GatehouseError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  }
  if (error instanceof ZodError) {
    return { code: ErrorCode.InvalidParams, message: 'invalid params', data: fieldProblems(error) };
  }
  console.error('gatehouse: internal error:', error);
  return { code: ErrorCode.InternalError, message: 'internal error' };
}
