import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentBin, runAgent, type AgentRun } from './agent-e2e';

export const OPENCODE = agentBin('opencode');
const VERSION = (
  JSON.parse(readFileSync(join(OPENCODE, '..', '..', 'opencode-ai', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/**
 * The environment a real OpenCode runs in for a test: isolated XDG folders under `dir`, no
 * model list or update fetched, `PWD` set to the project (OpenCode takes its folder from it,
 * not from the process's cwd), and one npm cache per pinned version shared across runs:
 * OpenCode installs `@opencode-ai/plugin` into each new config folder from npm (18–42 s
 * the first time, a few seconds from the cache).
 */
export function opencodeEnv(base: NodeJS.ProcessEnv, dir: string, project: string) {
  const xdg = (name: string) => {
    const path = join(dir, 'xdg', name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  return {
    ...base,
    HOME: join(dir, 'home'),
    PWD: project,
    XDG_CONFIG_HOME: xdg('config'),
    XDG_DATA_HOME: xdg('data'),
    XDG_CACHE_HOME: xdg('cache'),
    XDG_STATE_HOME: xdg('state'),
    OPENCODE_DISABLE_MODELS_FETCH: 'true',
    OPENCODE_DISABLE_AUTOUPDATE: 'true',
    npm_config_cache: join(tmpdir(), `gatehouse-opencode-npm-cache-${VERSION}`),
    // Once the pinned plugin package is in that cache, npm need not ask the registry again.
    npm_config_prefer_offline: 'true',
  };
}

/**
 * opencode.json for the project: the scripted chat-completions model as its only provider,
 * and OpenCode's own permissions at "allow" (`opencode run` rejects every "ask" itself), so
 * Gatehouse's plugin is what decides. `ask` lists permissions that still ask (for serve);
 * `extra` is laid over the rest (an `mcp` section, more permissions).
 */
export function writeOpencodeConfig(
  project: string,
  modelUrl: string,
  ask: string[] = [],
  extra: Record<string, unknown> = {},
): void {
  const permission = Object.fromEntries(
    ['bash', 'edit', 'read', 'external_directory'].map((p) => [
      p,
      ask.includes(p) ? 'ask' : 'allow',
    ]),
  );
  writeFileSync(
    join(project, 'opencode.json'),
    JSON.stringify(
      {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          e2e: {
            npm: '@ai-sdk/openai-compatible',
            name: 'E2E',
            options: { baseURL: `${modelUrl}/v1`, apiKey: 'e2e-test-key' },
            models: { 'e2e-model': { name: 'E2E model', tool_call: true } },
          },
        },
        model: 'e2e/e2e-model',
        permission,
        autoupdate: false,
        share: 'disabled',
        ...extra,
      },
      null,
      2,
    ),
  );
}

/**
 * `opencode run --format json` in `project` (its scratch folders under `dir`), the model
 * scripted beforehand: `flags` go before the prompt (`--print-logs`).
 */
export function runOpencode(
  base: NodeJS.ProcessEnv,
  dir: string,
  project: string,
  flags: string[] = [],
): Promise<AgentRun> {
  return runAgent(
    OPENCODE,
    ['run', ...flags, '--format', 'json', 'Do the scripted work.'],
    project,
    opencodeEnv(base, dir, project),
  );
}
