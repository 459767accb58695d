import { agentBin, type AgentRun, runAgent } from './agent-e2e';

/**
 * Running the real Claude Code CLI (`@anthropic-ai/claude-code`, pinned in
 * test/agents/package.json) offline: `claude -p` against a scripted model server on
 * 127.0.0.1, in a temporary HOME.
 */
export const CLAUDE = agentBin('claude');

export interface ClaudeOptions {
  cwd: string;
  home: string;
  modelUrl: string;
  /** Gatehouse's environment (GATEHOUSE_HOME, GATEHOUSE_SOCKET) and anything else. */
  env: NodeJS.ProcessEnv;
  args?: string[];
  mode?: string;
}

/** Runs `claude -p` to its end. */
export function runClaude(o: ClaudeOptions): Promise<AgentRun> {
  const env: NodeJS.ProcessEnv = {
    ...o.env,
    HOME: o.home,
    ANTHROPIC_BASE_URL: o.modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // bypassPermissions refuses to start as root outside a sandbox; this machine is one.
    IS_SANDBOX: '1',
  };
  delete env.CLAUDE_CODE_SESSION_ID;
  delete env.CLAUDECODE;
  return runAgent(
    CLAUDE,
    [
      '-p',
      'Do the scripted work.',
      '--permission-mode',
      o.mode ?? 'bypassPermissions',
      '--output-format',
      'json',
      ...(o.args ?? []),
    ],
    o.cwd,
    env,
  );
}

/** What `claude -p --output-format json` prints at the end of a run, in the fields tests read. */
export interface ClaudeRunResult {
  /** Why the run ended: `hook_stopped`, `aborted_tools`, … */
  terminal_reason?: string;
  permission_denials?: unknown[];
}

export const claudeRunResult = (run: AgentRun): ClaudeRunResult =>
  JSON.parse(run.stdout) as ClaudeRunResult;
