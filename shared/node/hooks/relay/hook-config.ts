import { secretVariablesIn, type SecretVariable } from '../../../tools/secret-variables';

/**
 * What the hook answers when Gatehouse cannot decide (unreachable, no answer in time, an
 * error, a payload it cannot read):
 * - `builtin` (the default): fail closed with the built-in action table — what would ask is
 *   denied with how to start Gatehouse, what the table allows (reads in the project, git
 *   queries, tests) is allowed; after a wait for a human that ran out, Claude Code's own
 *   prompt takes over, as before.
 * - `deny`: deny every call.
 * - `ask`: Claude Code's own permission prompt, even for reads (PreToolUse `ask` prompts even
 *   where Claude Code would not; in `claude -p` there is nobody to answer and it is refused).
 * - `defer`: print nothing, so Claude Code's own permission flow decides — in
 *   `bypassPermissions` mode that means allow.
 */
export type Fallback = 'builtin' | 'deny' | 'ask' | 'defer';

/** How the hook behaves, from the environment the agent passes on. */
export interface HookConfig {
  /** The agent name the sessions show under. */
  agent: string;
  /** How long to wait for a human on an `ask` action; stays below the agent's hook timeout. */
  waitMs: number;
  /** The answer when Gatehouse cannot decide; see {@link Fallback}. */
  fallback: Fallback;
  /** Problems with the settings themselves, reported on stderr. */
  warnings: string[];
  /**
   * Gatehouse's secret variables the agent's commands may hold (shared/tools/secret-variables.ts):
   * those set in the hook's environment, which they inherit; a command printing the whole
   * environment asks while one is held.
   */
  secretVariables: readonly SecretVariable[];
}

export const DEFAULT_WAIT_MS = 50_000;

/** Per agent: the name its sessions show under and how long its hook waits for a person. */
export interface HookDefaults {
  agent: string;
  waitMs: number;
  /** The agent's name in messages ("Claude Code"). */
  label: string;
}
export const CLAUDE_CODE_DEFAULTS: HookDefaults = {
  agent: 'claude-code',
  waitMs: DEFAULT_WAIT_MS,
  label: 'Claude Code',
};
const MAX_WAIT_MS = 24 * 60 * 60 * 1000;
const CHOSEN: ReadonlySet<string> = new Set(['deny', 'ask', 'defer']);

/**
 * Reads GATEHOUSE_HOOK_WAIT_MS, GATEHOUSE_HOOK_FALLBACK (`deny`, `ask` or `defer`; unset means
 * the fail-closed built-in table) and GATEHOUSE_HOOK_AGENT. Bad values fall back to the
 * defaults with a warning, never a crash.
 */
export function readHookConfig(
  env: NodeJS.ProcessEnv,
  defaults: HookDefaults = CLAUDE_CODE_DEFAULTS,
): HookConfig {
  const warnings: string[] = [];
  let waitMs = defaults.waitMs;
  const rawWait = env.GATEHOUSE_HOOK_WAIT_MS;
  if (rawWait !== undefined && rawWait !== '') {
    const n = Number(rawWait);
    if (Number.isInteger(n) && n >= 1 && n <= MAX_WAIT_MS) waitMs = n;
    else
      warnings.push(
        `GATEHOUSE_HOOK_WAIT_MS=${rawWait} is not a whole number of milliseconds; using ${defaults.waitMs}`,
      );
  }
  let fallback: Fallback = 'builtin';
  const rawFallback = env.GATEHOUSE_HOOK_FALLBACK?.trim().toLowerCase();
  if (rawFallback) {
    if (CHOSEN.has(rawFallback)) fallback = rawFallback as Fallback;
    else
      warnings.push(
        rawFallback === 'allow'
          ? `GATEHOUSE_HOOK_FALLBACK=allow is no longer supported (use defer to let ${defaults.label} decide); failing closed with the built-in action table`
          : `GATEHOUSE_HOOK_FALLBACK=${env.GATEHOUSE_HOOK_FALLBACK} is not deny, ask or defer; failing closed with the built-in action table`,
      );
  }
  const agent = env.GATEHOUSE_HOOK_AGENT?.trim().slice(0, 64) || defaults.agent;
  return { agent, waitMs, fallback, warnings, secretVariables: secretVariablesIn(env) };
}
