/**
 * How long one MCP tool call may wait for a person. Clients abort a tool call after a limit
 * of their own (Claude Code: 30 minutes, a hard wall-clock limit that progress notifications
 * do not extend), so a wait stays below it and then answers `queued`: the request stays in
 * the queue and `get_decision` picks the decision up.
 */
export const DEFAULT_MAX_WAIT_MS = 25 * 60 * 1000;
const MAX_WAIT_MS = 24 * 60 * 60 * 1000;

/** `GATEHOUSE_MCP_MAX_WAIT_MS`, or the default; a bad value is the default with a warning. */
export function readMaxWaitMs(env: NodeJS.ProcessEnv): { maxWaitMs: number; warning?: string } {
  const raw = env.GATEHOUSE_MCP_MAX_WAIT_MS;
  if (raw === undefined || raw === '') return { maxWaitMs: DEFAULT_MAX_WAIT_MS };
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 1 && n <= MAX_WAIT_MS) return { maxWaitMs: n };
  return {
    maxWaitMs: DEFAULT_MAX_WAIT_MS,
    warning: `GATEHOUSE_MCP_MAX_WAIT_MS=${raw} is not a whole number of milliseconds up to 24 h; using ${DEFAULT_MAX_WAIT_MS}`,
  };
}
