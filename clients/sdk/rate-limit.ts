import { ErrorCode } from '../../shared/protocol/errors';
import { RpcError } from './rpc-client';

/** The longest the client waits in all for one call that keeps being rate limited. */
export const MAX_RATE_LIMIT_WAIT_MS = 10_000;
/** The longest one wait, whatever the server says (a bug or a hostile server cannot park us). */
const MAX_ONE_WAIT_MS = 1_000;

/**
 * How long to wait before sending a call again that the connection's rate limit refused
 * (-32004 with `data.retryAfterMs`, see docs/protocol.md); undefined for every other error,
 * including the -32004 refusals that waiting a moment does not cure (too many queued
 * requests or waiting `await` calls: those wait for a human).
 */
export function retryAfterMsOf(error: unknown): number | undefined {
  if (!(error instanceof RpcError) || error.code !== ErrorCode.RateLimited) return undefined;
  const data = error.data;
  if (typeof data !== 'object' || data === null || !('retryAfterMs' in data)) return undefined;
  const ms = data.retryAfterMs;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(Math.max(1, Math.ceil(ms)), MAX_ONE_WAIT_MS);
}
