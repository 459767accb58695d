export type Fallback = 'ask' | 'deny' | 'allow';

/** How the hook behaves, from the environment Claude Code passes on. */
export interface HookConfig {
  /** The agent name the sessions show under. */
  agent: string;
  /** How long to wait for a human on an `ask` action; stays below Claude Code's 60 s hook timeout. */
  waitMs: number;
  /** The answer when no human decided in time, the daemon is unreachable or the payload is bad. */
  fallback: Fallback;
  /** Problems with the settings themselves, reported on stderr. */
  warnings: string[];
}

export const DEFAULT_WAIT_MS = 50_000;
const MAX_WAIT_MS = 24 * 60 * 60 * 1000;

/**
 * Reads GATEHOUSE_HOOK_WAIT_MS, GATEHOUSE_HOOK_FALLBACK (`ask`, `deny` or `allow`) and
 * GATEHOUSE_HOOK_AGENT. Bad values fall back to the defaults with a warning, never a crash.
 */
export function readHookConfig(env: NodeJS.ProcessEnv): HookConfig {
  const warnings: string[] = [];
  let waitMs = DEFAULT_WAIT_MS;
  const rawWait = env.GATEHOUSE_HOOK_WAIT_MS;
  if (rawWait !== undefined && rawWait !== '') {
    const n = Number(rawWait);
    if (Number.isInteger(n) && n >= 1 && n <= MAX_WAIT_MS) waitMs = n;
    else
      warnings.push(
        `GATEHOUSE_HOOK_WAIT_MS=${rawWait} is not a whole number of milliseconds; using ${DEFAULT_WAIT_MS}`,
      );
  }
  let fallback: Fallback = 'ask';
  const rawFallback = env.GATEHOUSE_HOOK_FALLBACK?.trim().toLowerCase();
  if (rawFallback) {
    if (rawFallback === 'ask' || rawFallback === 'deny' || rawFallback === 'allow')
      fallback = rawFallback;
    else
      warnings.push(
        `GATEHOUSE_HOOK_FALLBACK=${env.GATEHOUSE_HOOK_FALLBACK} is not ask, deny or allow; using ask`,
      );
  }
  const agent = env.GATEHOUSE_HOOK_AGENT?.trim().slice(0, 64) || 'claude-code';
  return { agent, waitMs, fallback, warnings };
}
