import { configHomesIn } from '../../../policy/config-homes';
import { clipShellPath } from '../../../policy/shell-path';
import type { AgentParams } from '../../../protocol/method-map';
import type { SecretVariable } from '../../../tools/secret-variables';

/** The gate's fields that carry what the agent's environment tells about its calls. */
export type AgentEnvironmentParams = Pick<
  AgentParams<'gate'>,
  'cdpath' | 'shellPath' | 'secretVariables' | 'configHomes'
>;

/**
 * What a gate call says of the environment the agent's tools run in, read from `env` (the
 * hook's, or the MCP server's: each inherits the agent's). The agent's shell inherits CDPATH
 * (`cd name` may go to a CDPATH folder, not ./name) and PATH (a program written into one of its
 * folders runs in place of another); its commands inherit Gatehouse's secret variables (a
 * command printing them all asks); and its hooks and settings are where its environment moves
 * them.
 */
export function agentEnvironmentParams(
  env: Readonly<Record<string, string | undefined>>,
  secretVariables: readonly SecretVariable[],
): AgentEnvironmentParams {
  const homes = configHomesIn(env);
  return {
    ...(env.CDPATH ? { cdpath: env.CDPATH.slice(0, 4096) } : {}),
    ...(env.PATH ? { shellPath: clipShellPath(env.PATH) } : {}),
    ...(secretVariables.length ? { secretVariables: [...secretVariables] } : {}),
    ...(Object.keys(homes).length ? { configHomes: homes } : {}),
  };
}
