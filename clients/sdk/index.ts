/** The Gatehouse agent SDK: a client of docs/protocol.md for TypeScript and JavaScript agents. */
export { GatehouseClient, failClosed, requestPermission } from './client';
export type { ConnectOptions, RequestAnswer } from './client';
export { RpcClient, RpcError, ConnectionError, UnsafeSocketError } from './rpc-client';
export { resolveSocketPath, resolveHome } from '../../shared/node/socket-path';
export { guardLLMCall, GuardStoppedError } from './guard-chain';
export { ToolExecutionGuard } from './tool-guard';
