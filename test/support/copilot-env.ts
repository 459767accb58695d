import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentBin, runAgent, type AgentRun } from './agent-e2e';
import type { EchoMcpServer } from './mcp-echo';

export const COPILOT = agentBin('copilot');
const VERSION = (
  JSON.parse(
    readFileSync(join(COPILOT, '..', '..', '@github', 'copilot', 'package.json'), 'utf8'),
  ) as { version: string }
).version;
// Copilot CLI unpacks ~235 MB of its own files into its cache at first start: one cache per
// pinned version, shared across runs, keeps that to the first run on a machine.
const CACHE = join(tmpdir(), `gatehouse-copilot-cache-${VERSION}`);

/**
 * `copilot -p` offline in `cwd` against the scripted chat completions API at `modelUrl`, with
 * every tool allowed by Copilot itself (Gatehouse's hook decides) and the folder trusted (so
 * it loads the repository's hooks); `extraArgs` after those. Without `allowAllTools` Copilot
 * asks its permissionRequest hooks about what it would prompt a person for. `model` decides
 * some of the tools Copilot offers (a GPT-5 model gets apply_patch in place of edit and create).
 */
export function runCopilotPrompt(
  base: NodeJS.ProcessEnv,
  home: string,
  modelUrl: string,
  cwd: string,
  extraArgs: string[] = [],
  allowAllTools = true,
  model = 'gpt-4.1',
): Promise<AgentRun> {
  mkdirSync(CACHE, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...base,
    HOME: home,
    XDG_CACHE_HOME: CACHE,
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'e2e-test-key',
    COPILOT_MODEL: model,
    COPILOT_AUTO_UPDATE: 'false',
  };
  delete env.GITHUB_TOKEN;
  delete env.GH_TOKEN;
  delete env.COPILOT_ALLOW_ALL;
  return runAgent(
    COPILOT,
    [
      '-p',
      'Do the scripted work.',
      ...(allowAllTools ? ['--allow-all-tools'] : []),
      '--trust-folder',
      '--output-format',
      'json',
      ...extraArgs,
    ],
    cwd,
    env,
  );
}

/** `--additional-mcp-config` with the echo MCP server configured as `server`, all its tools on. */
export function copilotEchoMcpArgs(server: string, echo: EchoMcpServer): string[] {
  const config = {
    mcpServers: {
      [server]: {
        type: 'local',
        command: echo.command,
        args: echo.args,
        env: echo.env,
        tools: ['*'],
      },
    },
  };
  return ['--additional-mcp-config', JSON.stringify(config)];
}
