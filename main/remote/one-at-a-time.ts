/**
 * `fn` run one call at a time: a call made while one runs starts after it. A chat app's way
 * back syncs to the settings this way, so a pause and a settings change arriving together
 * cannot start two polls (or two connections) of one bot. Each call's own failure is its
 * caller's; it does not stop the next.
 */
export function oneAtATime(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  return () => {
    const next = running.then(fn);
    running = next.catch(() => undefined);
    return next;
  };
}
