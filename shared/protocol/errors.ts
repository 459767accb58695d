/** JSON-RPC error codes of docs/protocol.md. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  Unauthorized: -32001,
  NotFound: -32002,
  AgentPaused: -32003,
  RateLimited: -32004,
  FrameTooLarge: -32005,
  HelloRequired: -32010,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** One offending field, as listed in `data` of an invalid-params error. */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * An error that crosses the wire with its JSON-RPC code. The engine throws these; every
 * transport turns them into the same error object.
 */
export class GatehouseError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'GatehouseError';
  }
}

export const notFound = (what: string): GatehouseError =>
  new GatehouseError(ErrorCode.NotFound, `${what} not found`);
