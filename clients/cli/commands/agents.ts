import type { Command } from 'commander';
import { parseInteger } from '../options';

/**
 * The ways agents plug in: `mcp` (an MCP server over stdio), `hook claude-code` (Claude Code
 * hooks) and `demo` (a simulated agent). Each action imports its module only when it runs, so
 * the hook — which runs before every tool call — loads neither zod nor the MCP SDK.
 */
export function registerAgentCommands(program: Command): void {
  program
    .command('mcp')
    .description(
      'Run an MCP server on stdio that gives an agent Gatehouse as tools (request_permission, check_action, …)',
    )
    .option(
      '--agent <name>',
      "agent name in Gatehouse (default: $GATEHOUSE_AGENT, else the MCP client's name)",
    )
    .option('--project <dir>', 'project directory for policy (default: the working directory)')
    .action(async (o: { agent?: string; project?: string }) => {
      const { runMcpServer } = await import('../../mcp/run-mcp');
      await runMcpServer({
        ...(o.agent ? { agent: o.agent } : {}),
        project: o.project ?? process.cwd(),
      });
    });

  program
    .command('hook')
    .description(
      "Answer a coding agent's hook on stdin (Claude Code), or install / uninstall the hooks",
    )
    .argument('<client>', 'the agent whose hooks to serve: claude-code')
    .option(
      '--install',
      "add the hooks to ~/.claude/settings.json (or the project's with --project)",
    )
    .option('--uninstall', 'remove exactly the hooks --install added')
    .option('--project <dir>', 'with --install/--uninstall: use DIR/.claude/settings.json')
    .option(
      '--permission-request',
      'with --install: gate only what Claude Code would prompt for (PermissionRequest) instead of every tool call (PreToolUse)',
    )
    .option(
      '--command <cmd>',
      'with --install: the command Claude Code runs (default: this gatehouse, by absolute path)',
    )
    .addHelpText(
      'after',
      `
Environment (read when the hook runs):
  GATEHOUSE_HOOK_WAIT_MS    how long to wait for a human on an "ask" action (default 50000)
  GATEHOUSE_HOOK_FALLBACK   when Gatehouse is unreachable: unset = fail closed (deny what would ask,
                            with how to start Gatehouse; allow what the built-in table allows),
                            deny, ask (Claude Code prompts, even for reads), or defer (print
                            nothing: Claude Code decides; in bypassPermissions mode that allows)
  GATEHOUSE_HOOK_AGENT      agent name the sessions show under (default claude-code)`,
    )
    .action(
      async (
        client: string,
        o: {
          install?: boolean;
          uninstall?: boolean;
          project?: string;
          permissionRequest?: boolean;
          command?: string;
        },
      ) => {
        if (client !== 'claude-code') {
          console.error(`gatehouse: unknown hook client "${client}"; supported: claude-code`);
          process.exitCode = 4;
          return;
        }
        if (o.install || o.uninstall) {
          const { runHookInstall } = await import('../../hooks/claude-code/install-command');
          process.exitCode = runHookInstall(o);
          return;
        }
        const { runClaudeCodeHook } = await import('../../hooks/claude-code/run-hook');
        await runClaudeCodeHook();
      },
    );

  program
    .command('demo')
    .description('Run simulated agent sessions (no LLM) that show every part of Gatehouse move')
    .option('--agents <n>', 'how many agents at once', parseInteger, 1)
    .option(
      '--wait-ms <ms>',
      'how long the email request waits for a human before moving on',
      parseInteger,
      1500,
    )
    .action(async (o: { agents: number; waitMs: number }) => {
      const { runDemo } = await import('../../demo/run-demo');
      process.exitCode = await runDemo({ agents: o.agents, waitMs: o.waitMs });
    });
}
