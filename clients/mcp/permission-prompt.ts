import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentParams, AgentResult } from '../../shared/protocol/method-map';
import { ErrorCode } from '../../shared/protocol/errors';
import { claudeSandboxInput } from '../../shared/node/hooks/claude-code/sandbox';
import { START_GATEHOUSE } from '../../shared/node/hooks/relay/types';
import { agentEnvironmentParams } from '../../shared/node/hooks/relay/agent-environment';
import { secretVariablesIn } from '../../shared/tools/secret-variables';
import { RpcError } from '../sdk/rpc-client';
import type { GatehouseLink } from './gatehouse-link';
import { keepAlive, type ToolExtra } from './keep-alive';
import { failure } from './tool-results';
import { permissionPromptInput } from './tool-schemas';
import { withdrawOnAbort } from './withdraw';

/** The tool's name: `claude -p --permission-prompt-tool mcp__gatehouse__permission_prompt`. */
export const PERMISSION_PROMPT_TOOL = 'permission_prompt';

export interface PermissionPromptOptions {
  /** The project (Claude Code starts MCP servers in it): the call's cwd for the gate. */
  project?: string;
  /** The longest the tool waits for a person: below Claude Code's 30-minute tool-call limit. */
  maxWaitMs: number;
  /**
   * The server's environment: Claude Code's, which started it and whose tools run in it (its
   * PATH, CDPATH, moved config folders, Gatehouse's secret variables).
   */
  env: NodeJS.ProcessEnv;
}

type Decision =
  | { behavior: 'allow'; updatedInput: Record<string, unknown> }
  /** `interrupt`: Claude Code ends the run (what the hook's `continue: false` does). */
  | { behavior: 'deny'; message: string; interrupt?: true };

/**
 * Claude Code's answer format: the decision as JSON in a single text block. No output schema
 * and no structured content: Claude Code 2.1.330 refuses a result with structured content
 * ("Expected a single text block"), and counts that as an error of the tool call.
 */
function answer(d: Decision): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(d) }] };
}

/**
 * The Claude Code headless gate: an MCP tool shaped for `claude -p --permission-prompt-tool
 * mcp__gatehouse__permission_prompt`. Claude Code calls it for every tool call it would ask a
 * person about (not in bypassPermissions mode, which asks nobody); the call goes through the
 * daemon's `gate`, as the hook's does, waits for a person up to the cap, and fails closed: no
 * Gatehouse, an error, or no decision in time is a deny with the reason.
 */
export function registerPermissionPromptTool(
  server: McpServer,
  link: GatehouseLink,
  o: PermissionPromptOptions,
): void {
  const minutes = Math.round(o.maxWaitMs / 6000) / 10;
  server.registerTool(
    PERMISSION_PROMPT_TOOL,
    {
      title: "Gatehouse: decide Claude Code's permission prompts",
      description:
        `For Claude Code's --permission-prompt-tool (claude -p --permission-prompt-tool mcp__gatehouse__${PERMISSION_PROMPT_TOOL}): Gatehouse decides each tool call Claude Code would ask about, by policy or by a person (waiting up to ${minutes} min), and denies when it cannot decide. ` +
        'Not for the model to call.',
      inputSchema: permissionPromptInput,
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async (a, extra) => {
      const fromMeta = extra._meta?.['claudecode/toolUseId'];
      // The gate files the ask with the dedupe key `claude-code:<toolUseId>`: a withdrawal
      // (below) finds the same request through it.
      const toolUseId = (
        a.tool_use_id ??
        (typeof fromMeta === 'string' ? fromMeta : undefined) ??
        `mcp-${randomUUID()}`
      ).slice(0, 256);
      const params: AgentParams<'gate'> = {
        client: 'claude-code',
        event: 'PermissionRequest',
        tool: a.tool_name,
        input: a.input,
        toolUseId,
        ...(o.project ? { cwd: o.project } : {}),
        wait: true,
        timeoutMs: o.maxWaitMs,
        // The call runs in Claude Code's environment, as the hook reports it.
        ...agentEnvironmentParams(o.env, secretVariablesIn(o.env)),
      };
      const stopWatching = withdrawOnAbort(extra.signal, async () => {
        const open = await link.call((c) => c.gate({ ...params, wait: false }));
        if (open.outcome === 'pending' && open.requestId)
          await link.call((c) => c.cancel(open.requestId!));
      });
      const stopProgress = keepAlive(
        extra as ToolExtra,
        `waiting for a person to decide on ${a.tool_name}`,
      );
      try {
        return answer(decisionOf(await link.call((c) => c.gate(params)), a.input, a.tool_name));
      } catch (error) {
        if (error instanceof RpcError && error.code === ErrorCode.AgentPaused)
          return answer({
            behavior: 'deny',
            message: `Gatehouse says stop: ${error.message}`,
            interrupt: true,
          });
        return answer({
          behavior: 'deny',
          message: `Gatehouse: ${failure(error)} ${a.tool_name} is denied. ${START_GATEHOUSE}.`,
        });
      } finally {
        stopProgress();
        stopWatching();
      }
    },
  );
}

/** The one place a gate answer becomes Claude Code's permission decision. */
function decisionOf(
  g: AgentResult<'gate'>,
  input: Record<string, unknown>,
  tool: string,
): Decision {
  // Paused, killed or a breaker says stop: end the run, not just this call.
  if (g.stop) return { behavior: 'deny', message: g.stop.reason, interrupt: true };
  switch (g.outcome) {
    case 'allow':
      // A person's allow leaves Claude Code's sandbox; an agent's own request to is taken out.
      return {
        behavior: 'allow',
        updatedInput: claudeSandboxInput(tool, input, g.outsideSandbox === true) ?? input,
      };
    // Claude Code's own bookkeeping: Gatehouse has no opinion, and there is no person here.
    case 'none':
      return { behavior: 'allow', updatedInput: input };
    case 'deny':
      return { behavior: 'deny', message: g.reason };
    case 'pending':
      return {
        behavior: 'deny',
        message: `${g.reason}: nobody decided on ${tool} in time, so it is denied. Approving request ${g.requestId ?? ''} lets the same call through when it is tried again.`,
      };
  }
}
