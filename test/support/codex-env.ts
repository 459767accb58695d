import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, runAgent, type AgentRun } from './agent-e2e';

export const CODEX = agentBin('codex');

/**
 * A CODEX_HOME under `home` (its `.codex`, or `folder`) whose config.toml points Codex at the
 * scripted Responses API (`modelUrl`, the server's `/v1`) as `model` and nothing else: no
 * user-level hooks. Returns its path.
 */
export function codexHomeFor(
  home: string,
  modelUrl: string,
  model = 'gpt-5',
  folder = '.codex',
): string {
  const codexHome = join(home, folder);
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      `model = "${model}"`,
      'model_provider = "scripted"',
      '',
      '[model_providers.scripted]',
      'name = "Scripted"',
      `base_url = "${modelUrl}"`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_API_KEY"',
      '',
    ].join('\n'),
  );
  return codexHome;
}

/**
 * `codex exec` offline in `cwd` (`--dangerously-bypass-hook-trust`: the test vets its own
 * hooks), with the sandbox given in `flags` or, by default, none (Codex's read-only sandbox
 * would refuse a push itself).
 */
export function runCodexExec(
  base: NodeJS.ProcessEnv,
  home: string,
  codexHome: string,
  cwd: string,
  flags: string[] = [],
): Promise<AgentRun> {
  const env: NodeJS.ProcessEnv = {
    ...base,
    HOME: home,
    CODEX_HOME: codexHome,
    SCRIPTED_API_KEY: 'sk-e2e-test',
    RUST_LOG: 'warn',
  };
  delete env.OPENAI_API_KEY;
  delete env.CODEX_SANDBOX;
  return runAgent(
    CODEX,
    [
      'exec',
      '--skip-git-repo-check',
      '--ephemeral',
      '--dangerously-bypass-hook-trust',
      ...(flags.length ? flags : ['--sandbox', 'danger-full-access']),
      'Do the scripted work.',
    ],
    cwd,
    env,
  );
}
