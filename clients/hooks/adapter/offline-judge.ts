import { loadBashParser } from '../../../shared/node/bash-parser';
import { agentToolAction } from '../../../shared/tools/agent-tools';
import { offlineDecision } from './offline-decision';
import type { AgentAdapter, HookDecision, ToolCallEvent } from './types';

/**
 * The built-in table's answer for a tool call, when Gatehouse cannot be asked: the shell
 * parser, the agents' tool tables and the offline table. Everything the relay needs only when
 * Gatehouse is down, behind one import: the hook build puts it in a file of its own
 * (dist/hook/gatehouse-hook-offline.cjs, see scripts/build.mjs), so the hook process that
 * Gatehouse answers never reads or compiles it. Throws when the parser cannot load; the
 * caller then denies.
 */
export async function judgeOffline(
  adapter: Pick<AgentAdapter, 'agent'>,
  call: ToolCallEvent,
  env: NodeJS.ProcessEnv,
  why: string,
): Promise<HookDecision> {
  const mapping = agentToolAction(
    adapter.agent,
    call.tool,
    call.input,
    await loadBashParser(),
    call.mcp,
  );
  if (mapping.kind === 'internal') return { behavior: 'defer', reason: 'internal tool' };
  return offlineDecision(mapping, { cwd: call.cwd, env }, why);
}
