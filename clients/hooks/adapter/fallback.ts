import { loadBashParser } from '../../../shared/node/bash-parser';
import { agentToolAction } from '../../../shared/tools/agent-tools';
import type { HookConfig } from './hook-config';
import { offlineDecision, START_GATEHOUSE, type OfflineCall } from './offline-decision';
import type { AgentAdapter, HookDecision, ToolCallEvent } from './types';

/**
 * The answer when Gatehouse cannot decide, with why (see `Fallback` in hook-config.ts). With
 * the default, `call` (the tool call, when it could be read) is judged by the built-in table;
 * without it the call is denied. `ask` and `defer` need a prompt of the agent's own: for an
 * agent without one they deny too.
 */
export function fallbackDecision(
  adapter: Pick<AgentAdapter, 'canAsk' | 'defaults'>,
  config: HookConfig,
  why: string,
  call?: OfflineCall,
  offline?: { cwd?: string; env: NodeJS.ProcessEnv },
): HookDecision {
  const label = adapter.defaults.label;
  switch (config.fallback) {
    case 'builtin':
      return call && offline
        ? offlineDecision(call, offline, why)
        : {
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
  let offline: OfflineCall | undefined;
  try {
    const mapping = agentToolAction(adapter.agent, call.tool, call.input, await loadBashParser());
    if (mapping.kind === 'internal') return { behavior: 'defer', reason: 'internal tool' };
    offline = mapping;
  } catch {
    offline = undefined; // no parser: the call cannot be judged here, so it is denied below
  }
  return fallbackDecision(adapter, config, why, offline, { cwd: call.cwd, env });
}
