import { RpcError } from '../../clients/sdk/rpc-client';

/** The code of the error a call fails with (or undefined when it succeeds). */
export async function errorCodeOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return undefined;
  } catch (error) {
    if (error instanceof RpcError) return error.code;
    throw error;
  }
}
