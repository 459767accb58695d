import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How often a waiting tool call reports progress. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * While a tool call waits for a human, sends MCP progress notifications when the client asked
 * for them (a progressToken), so clients that reset their request timeout on progress keep
 * waiting. Returns the function that stops it.
 */
export function keepAlive(extra: ToolExtra, message: string): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let progress = 0;
  const timer = setInterval(() => {
    progress++;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, message },
      })
      .catch(() => {
        /* the client went away; the call itself will end */
      });
  }, PROGRESS_EVERY_MS);
  return () => clearInterval(timer);
}
