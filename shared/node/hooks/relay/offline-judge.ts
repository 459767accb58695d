import { loadBashParser } from '../../bash-parser';
import { agentToolAction } from '../../../tools/agent-tools';
import { MAX_OFFLINE_COMMAND, offlineDecision, type OfflineContext } from './offline-decision';
import { START_GATEHOUSE, type AgentAdapter, type HookDecision, type ToolCallEvent } from './types';

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
  agentEnvironment: Pick<OfflineContext, 'env' | 'secretVariables'>,
  why: string,
): Promise<HookDecision> {
  // Too large to parse is never the built-in table's to allow: Gatehouse asks a person.
  if (JSON.stringify(call.input).length > MAX_OFFLINE_COMMAND)
    return {
      behavior: 'deny',
      reason: `Gatehouse: ${why}, and this call is too large to check, so it is denied. ${START_GATEHOUSE}.`,
    };
  const shell = await loadBashParser();
  const mapping = agentToolAction(adapter.agent, call.tool, call.input, shell, call.mcp);
  if (mapping.kind === 'internal') return { behavior: 'defer', reason: 'internal tool' };
  return offlineDecision(mapping, { ...agentEnvironment, cwd: call.cwd, shell }, why);
}
