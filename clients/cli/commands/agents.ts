import type { Command } from 'commander';
import { parseInteger } from '../options';

/**
 * The ways agents plug in: `mcp` (an MCP server over stdio), `hook <agent>` (agent hooks) and
 * `demo` (a simulated agent). Each action imports its module only when it runs, so
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
      "Answer a coding agent's hook on stdin, or install / uninstall Gatehouse's hooks in the agent's config",
    )
    .argument('<agent>', 'the agent: claude-code, codex, gemini, copilot, opencode or cursor')
    .option('--install', "merge Gatehouse's hook entries into the agent's config")
    .option('--uninstall', 'remove exactly the entries --install added')
    .option(
      '--check',
      "opencode: say whether Gatehouse's current plugin is installed (the user's and the project's) and loads; exits 1 when not",
    )
    .option(
      '--project <dir>',
      "with --install/--uninstall/--check: the repository's config (DIR/.claude, DIR/.codex, DIR/.cursor, …) instead of the user's",
    )
    .option(
      '--permission-request',
      'with --install (claude-code, codex, copilot): gate only what the agent would prompt for (PermissionRequest) instead of every tool call (PreToolUse)',
    )
    .option(
      '--command <cmd>',
      'with --install (and opencode --check): the command the agent runs (default: this gatehouse, by absolute path)',
    )
    .option(
      '--http',
      'with --install (claude-code): http hooks the daemon serves on 127.0.0.1 with a secret, instead of a process per tool call; with Gatehouse down every call is blocked',
    )
    .option(
      '--no-sandbox',
      "with --install (claude-code): leave Claude Code's own sandbox alone (by default it is turned on, with Gatehouse's files denied to its tools and commands)",
    )
    .addHelpText(
      'after',
      `
Where the hooks go, what they gate, and the agent's hook timeout:
  claude-code  ~/.claude/settings.json (--project: DIR/.claude/settings.json); every tool call
               (PreToolUse) or --permission-request; timeout 60 s, raised to the wait + 10 s
  codex        $CODEX_HOME/hooks.json (default ~/.codex; --project: DIR/.codex/hooks.json);
               shell commands, apply_patch, MCP tools (PreToolUse) or --permission-request;
               timeout written: the wait + 10 s. Trust the hook in Codex's /hooks once.
  cursor       ~/.cursor/hooks.json (--project: DIR/.cursor/hooks.json); beforeShellExecution,
               beforeMCPExecution, beforeReadFile, preToolUse; failClosed
  gemini       ~/.gemini/settings.json (--project: DIR/.gemini/settings.json); every tool call
               (BeforeTool); timeout written (ms): the wait + 10 s; continue:false stops the run
  copilot      DIR/.github/hooks/gatehouse.json (--project required); every tool call
               (preToolUse) or --permission-request; timeout 30 s: the wait (25 s) stays within
  opencode     a plugin, ~/.config/opencode/plugin/gatehouse.js (--project:
               DIR/.opencode/plugin/gatehouse.js); every tool call (tool.execute.before); a stop
               aborts the session. For \`opencode serve\`: gatehouse opencode-bridge --url URL.
               OpenCode skips a plugin that fails to load without a word: --install checks
               that it loads, and --check (any time, e.g. after an upgrade) checks again

Installing prints what will now happen: which calls wait for a person and how long, what
happens when Gatehouse is down, and what to restart. The installed command carries
GATEHOUSE_HOME / GATEHOUSE_SOCKET when they are not the defaults.

Environment (read when the hook runs):
  GATEHOUSE_HOOK_WAIT_MS    how long to wait for a human on an "ask" action (default: 50000 for
                            Claude Code, Cursor and Gemini CLI, 25000 for Copilot CLI, 300000 for
                            Codex and OpenCode; set it before --install so
                            the hook timeout follows)
  GATEHOUSE_HOOK_FALLBACK   when Gatehouse is unreachable: unset = fail closed (deny what would ask,
                            with how to start Gatehouse; allow what the built-in table allows),
                            deny, ask (the agent prompts, even for reads; agents without a prompt
                            deny), or defer (print nothing: the agent decides; in Claude Code's
                            bypassPermissions mode that allows)
  GATEHOUSE_HOOK_AGENT      agent name the sessions show under (default: the agent)`,
    )
    .action(
      async (
        agent: string,
        o: {
          install?: boolean;
          uninstall?: boolean;
          check?: boolean;
          project?: string;
          permissionRequest?: boolean;
          command?: string;
          http?: boolean;
          sandbox?: boolean;
        },
      ) => {
        if (o.check) {
          if (agent !== 'opencode' || o.install || o.uninstall) {
            console.error(
              'gatehouse: --check is for opencode, on its own: gatehouse hook opencode --check',
            );
            process.exitCode = 4;
            return;
          }
          const { runOpencodeCheck } = await import('../../hooks/opencode/check-command');
          process.exitCode = await runOpencodeCheck(o);
          return;
        }
        if (o.install || o.uninstall) {
          const { runHookInstall } = await import('../../hooks/install-command');
          process.exitCode = await runHookInstall(agent, o);
          return;
        }
        const { runHookMain } = await import('../../hooks/hook-main');
        await runHookMain(agent);
      },
    );

  program
    .command('opencode-bridge')
    .description(
      "Answer an `opencode serve`'s own permission asks (permission.asked) from Gatehouse: once when a person approves, reject when they deny",
    )
    .requiredOption('--url <url>', 'the OpenCode server, e.g. http://127.0.0.1:4096')
    .option('--agent <name>', 'agent name the sessions show under', 'opencode')
    .option(
      '--wait-ms <ms>',
      'how long one wait for a person lasts before the bridge waits again',
      parseInteger,
      300_000,
    )
    .action(async (o: { url: string; agent: string; waitMs: number }) => {
      const { runOpencodeBridge } = await import('../../hooks/opencode/bridge');
      const stop = new AbortController();
      for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
      await runOpencodeBridge({
        url: o.url,
        agent: o.agent,
        waitMs: o.waitMs,
        ...(process.env.OPENCODE_SERVER_PASSWORD
          ? { password: process.env.OPENCODE_SERVER_PASSWORD }
          : {}),
        log: (line) => console.error(`gatehouse opencode-bridge: ${line}`),
        signal: stop.signal,
      });
    });

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
