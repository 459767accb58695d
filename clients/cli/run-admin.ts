import { ErrorCode } from '../../shared/protocol/errors';
import { ConnectionError, RpcError, UnsafeSocketError } from '../sdk/rpc-client';
import { AdminClient } from './admin-client';
import { isClosedStdout } from './closed-pipe';

/** Exit codes the CLI uses, documented in `gatehouse --help`. */
export const Exit = { ok: 0, error: 1, notRunning: 2, notFound: 3, invalid: 4 } as const;

/** Input the CLI refuses before asking the daemon (exit 4), with a message saying what fits. */
export class UsageError extends Error {}

/**
 * Runs one admin action with a connected client and turns failures into a clear message and
 * exit code: not running, unknown id, invalid input.
 */
export async function withAdmin(fn: (client: AdminClient) => Promise<void>): Promise<void> {
  let client: AdminClient | undefined;
  try {
    client = await AdminClient.connect();
    await fn(client);
  } catch (error) {
    process.exitCode = reportError(error);
  } finally {
    client?.close();
  }
}

export function reportError(error: unknown): number {
  // The reader of stdout went away (`| head`): the command is done, not failed.
  if (isClosedStdout(error)) return Exit.ok;
  if (error instanceof UnsafeSocketError) {
    // Nothing was sent, the admin token least of all.
    console.error(error.message);
    return Exit.error;
  }
  if (error instanceof ConnectionError) {
    console.error(
      `gatehouse: ${error.message}. Start it with \`gatehouse daemon\` or \`npm start\`.`,
    );
    return Exit.notRunning;
  }
  if (error instanceof RpcError) {
    console.error(`gatehouse: ${error.message}`);
    if (error.code === ErrorCode.NotFound) return Exit.notFound;
    if (error.code === ErrorCode.InvalidParams) return Exit.invalid;
    return Exit.error;
  }
  console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
  return error instanceof UsageError ? Exit.invalid : Exit.error;
}

export const printJson = (value: unknown): void => console.log(JSON.stringify(value, null, 2));
