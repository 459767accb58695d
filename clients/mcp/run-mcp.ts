import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { VERSION } from '../../shared/version';
import { GatehouseLink } from './gatehouse-link';
import { agentSessionFrom } from './agent-session';
import { registerGatehouseTools } from './tools';
import { readMaxWaitMs } from './wait-cap';

export interface McpServerOptions {
  /** Agent name; else $GATEHOUSE_AGENT, else the MCP client's name, else `mcp-agent`. */
  agent?: string;
  project?: string;
  socketPath?: string;
  env?: NodeJS.ProcessEnv;
}

const INSTRUCTIONS = `Gatehouse is the human gate for this agent. Before any action that talks to another person, leaves the sandbox or cannot be undone, call request_permission and act only on approved: true. Call check_budget before each loop iteration and stop when allowed is false. Record what you do with log_action, report model usage with report_usage, and call end_session when the task is done.`;

/**
 * Builds the MCP server with Gatehouse's tools. One MCP session is one Gatehouse session; run
 * by an agent that names its session in the environment (Claude Code's
 * CLAUDE_CODE_SESSION_ID), it is the session of that agent's hook too.
 */
export function createGatehouseMcpServer(o: McpServerOptions = {}): {
  server: McpServer;
  link: GatehouseLink;
  warnings: string[];
} {
  const env = o.env ?? process.env;
  const server = new McpServer(
    { name: 'gatehouse', version: VERSION },
    { instructions: INSTRUCTIONS },
  );
  const session = agentSessionFrom(env);
  const agent = (): string => {
    const name =
      o.agent ??
      env.GATEHOUSE_AGENT ??
      session?.agent ??
      server.server.getClientVersion()?.name ??
      'mcp-agent';
    return name.trim().slice(0, 64) || 'mcp-agent';
  };
  const { maxWaitMs, warning } = readMaxWaitMs(env);
  const link = new GatehouseLink({
    agent,
    // Stable for this process: a reconnection resumes the same Gatehouse session.
    sessionKey: env.GATEHOUSE_SESSION_KEY ?? session?.sessionKey ?? `mcp-${randomUUID()}`,
    ...(o.project ? { project: o.project } : {}),
    ...(o.socketPath ? { socketPath: o.socketPath } : {}),
  });
  registerGatehouseTools(server, link, {
    ...(o.project ? { project: o.project } : {}),
    maxWaitMs,
    env,
  });
  return { server, link, warnings: warning ? [warning] : [] };
}

/** `gatehouse mcp`: serves MCP on stdin/stdout until the client closes it. */
export async function runMcpServer(o: McpServerOptions = {}): Promise<void> {
  const { server, link, warnings } = createGatehouseMcpServer(o);
  for (const w of warnings) process.stderr.write(`gatehouse mcp: ${w}\n`);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  await server.connect(transport);
  // stdout is the protocol: diagnostics go to stderr only.
  process.stderr.write(`gatehouse mcp: serving on stdio (Gatehouse ${VERSION})\n`);
  process.stdin.on('end', () => void server.close());
  await closed;
  link.drop();
}
