import { agentBin, runAgent, type AgentRun } from './agent-e2e';

export const GEMINI = agentBin('gemini');

/**
 * `gemini -p` offline in `cwd` against the scripted Gemini API at `modelUrl`, with folder
 * trust off and `--approval-mode yolo` (the default mode drops the shell tool in headless
 * runs; the hook still runs first). `extra`: more of Gemini CLI's flags.
 */
export function runGeminiPrompt(
  base: NodeJS.ProcessEnv,
  home: string,
  modelUrl: string,
  cwd: string,
  extra: string[] = [],
): Promise<AgentRun> {
  const env: NodeJS.ProcessEnv = {
    ...base,
    HOME: home,
    GOOGLE_GEMINI_BASE_URL: modelUrl,
    GEMINI_API_KEY: 'e2e-test-key',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
  delete env.GOOGLE_API_KEY;
  delete env.GOOGLE_CLOUD_PROJECT;
  return runAgent(
    GEMINI,
    [
      '-m',
      'gemini-2.5-pro',
      '-p',
      'Do the scripted work.',
      '-o',
      'json',
      '--approval-mode',
      'yolo',
      ...extra,
    ],
    cwd,
    env,
  );
}
