import type { HookConfig } from './hook-config';
import { START_GATEHOUSE, type AgentAdapter, type HookDecision, type ToolCallEvent } from './types';

/**
 * The answer when Gatehouse cannot decide, with why (see `Fallback` in hook-config.ts), for a
 * call that cannot be judged by the built-in table (see {@link fallbackFor}): denied by
 * default. `ask` and `defer` need a prompt of the agent's own: for an agent without one
 * `ask` denies too.
 */
export function fallbackDecision(
  adapter: Pick<AgentAdapter, 'canAsk' | 'defaults'>,
  config: HookConfig,
  why: string,
): HookDecision {
  const label = adapter.defaults.label;
  switch (config.fallback) {
    case 'builtin':
      return {
        behavior: 'deny',
        reason: `Gatehouse: ${why}, so the call is denied. ${START_GATEHOUSE}.`,
      };
    case 'deny':
      return {
        behavior: 'deny',
        reason: `Gatehouse: ${why}; denying (GATEHOUSE_HOOK_FALLBACK=deny). ${START_GATEHOUSE}.`,
      };
    case 'ask':
      return adapter.canAsk
        ? { behavior: 'ask', reason: `Gatehouse: ${why}; asking in ${label} instead` }
        : {
            behavior: 'deny',
            reason: `Gatehouse: ${why}; ${label} has no prompt to ask in, so the call is denied. ${START_GATEHOUSE}.`,
          };
    case 'defer':
      return {
        behavior: 'defer',
        reason: `Gatehouse: ${why}; leaving the call to ${label} (GATEHOUSE_HOOK_FALLBACK=defer)`,
      };
  }
}

/**
 * The answer when Gatehouse is running but answered the call with an error: denied, or the
 * agent's own prompt where the person chose `ask` or `defer`; never the built-in table's
 * judgement (decide.ts says why).
 */
export function answeredErrorDecision(
  adapter: Pick<AgentAdapter, 'canAsk' | 'defaults'>,
  config: HookConfig,
  why: string,
): HookDecision {
  if (config.fallback === 'ask' || config.fallback === 'defer')
    return fallbackDecision(adapter, config, why);
  return { behavior: 'deny', reason: `Gatehouse: ${why}, so the call is denied` };
}

/**
 * The fallback for a tool call, judged by the built-in table where that applies. The shell
 * parser loads only here: the daemon parses when it is reachable, so the hook process stays
 * a thin relay on the common path.
 */
export async function fallbackFor(
  adapter: AgentAdapter,
  call: ToolCallEvent,
  config: HookConfig,
  env: NodeJS.ProcessEnv,
  why: string,
): Promise<HookDecision> {
  if (config.fallback !== 'builtin') return fallbackDecision(adapter, config, why);
  try {
    // Loaded only here, when Gatehouse cannot answer: the relay's common path stays small.
    const { judgeOffline } = await import('./offline-judge');
    return await judgeOffline(adapter, call, { env, secretVariables: config.secretVariables }, why);
  } catch {
    // No parser (or no offline file): the call cannot be judged here, so it is denied.
    return fallbackDecision(adapter, config, why);
  }
}
