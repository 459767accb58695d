/**
 * A tool call the client cancels (MCP `notifications/cancelled`, which aborts the handler's
 * signal) must not leave its question in front of the person: the request it filed is
 * withdrawn, and the daemon shows it cancelled.
 *
 * Returns the function that stops watching (call it when the handler ends). `withdraw` runs at
 * most once; its failure is ignored: the request then waits in the queue like any other.
 */
export function withdrawOnAbort(signal: AbortSignal, withdraw: () => Promise<unknown>): () => void {
  let done = false;
  const onAbort = () => {
    if (done) return;
    done = true;
    withdraw().catch(() => {
      /* Gatehouse is gone or already decided: nothing is left to withdraw */
    });
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    done = true;
    signal.removeEventListener('abort', onAbort);
  };
}
