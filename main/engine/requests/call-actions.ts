import type { ActionSpec } from '../../../shared/tools/action-spec';
import { agentToolAction, type AgentKind } from '../../../shared/tools/agent-tools';
import { runDirectory } from '../../../shared/tools/run-directory';
import type { ShellParser } from '../../../shared/tools/shell-syntax';
import type { McpToolRef, ToolMapping } from '../../../shared/tools/tool-mapping';
import type { Classification } from '../policy/classifier';
import type { CallEnvironment } from '../policy/classification';

/** One action of a tool call as the classifier takes it: with the call's command and environment. */
export type CallAction = ActionSpec & { command?: string } & CallEnvironment;

/**
 * A mapped call's actions as they are classified: each candidate with the call's shell command
 * (project policies match it) and `known`, what else the gate knows of the call (the agent's
 * environment, the size of a call too large to parse). The gate, a person's edit of a waiting
 * call and the gate's answer to that edit all build them here, so each judges the same thing.
 */
export function callActions<K extends CallEnvironment>(
  mapping: Extract<ToolMapping, { kind: 'gate' }>,
  known: K,
): (CallAction & K)[] {
  const command = mapping.command;
  return mapping.candidates.map((c) =>
    command === undefined ? { ...c, ...known } : { ...c, command, ...known },
  );
}

/** Classifies one action of a call, in the directory it runs in, among the call's others. */
export type ClassifyCallAction = (
  a: CallAction,
  cwd: string | undefined,
  call: readonly CallAction[],
) => Classification;

/** A tool call as its agent made it, apart from its input. */
export interface AgentCall {
  client: AgentKind;
  tool: string;
  /** The MCP server and tool, when the agent reported them apart from the tool's name. */
  mcp?: McpToolRef | undefined;
  /** The agent's working directory: the call's own (`dir_path`, `workdir`) resolves against it. */
  cwd?: string | undefined;
  /** The environment the call reported, in which it (and a person's edit of it) runs. */
  environment: CallEnvironment;
}

/**
 * A person's edit of a waiting call, mapped by the agent's tool table and each action
 * classified where and as the edited call will run (its own working directory if the edit
 * kept or set one, the agent's environment): `internal` when it only touches the agent's
 * own state.
 */
export function classifyEditedCall(
  call: AgentCall,
  input: Record<string, unknown>,
  shell: ShellParser,
  classify: ClassifyCallAction,
): 'internal' | { a: CallAction; c: Classification }[] {
  const mapping = agentToolAction(call.client, call.tool, input, shell, call.mcp);
  if (mapping.kind === 'internal') return 'internal';
  const actions = callActions(mapping, call.environment);
  const cwd = runDirectory(call.cwd, mapping.workdir);
  return actions.map((a) => ({ a, c: classify(a, cwd, actions) }));
}
