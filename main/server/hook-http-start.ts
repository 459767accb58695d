import type { IncomingHttpHeaders } from 'node:http';
import { answerHookPayload } from '../../shared/node/hooks/relay/relay';
import { HOOK_ADAPTERS } from '../../shared/node/hooks/adapters';
import {
  AGENT_ENV_HEADERS,
  hookHttpConfigPath,
  readHookHttpConfig,
} from '../../shared/node/hook-http-config';
import type { Engine } from '../engine/engine';
import { GATEHOUSE_SECRET_VARIABLES } from '../../shared/tools/secret-variables';
import { EngineHookLink } from './hook-http-link';
import { HookHttpServer } from './hook-http-server';

/** Agents whose hooks can be `"type": "http"` (verified with the real CLI: Claude Code 2.1.330). */
export const HTTP_HOOK_AGENTS = ['claude-code'] as const;

export interface HookHttpStartOptions {
  home: string;
  socketPath: string;
  env: NodeJS.ProcessEnv;
  print: (line: string) => void;
  /** The daemon's engine: each payload's session is opened on it in this process (hook-http-link.ts). */
  engine: Engine;
}

/**
 * Serves the http hook when `gatehouse hook claude-code --install --http` configured one
 * ($GATEHOUSE_HOME/hook-http.json); otherwise opens no port. The handler is the command hook's
 * own relay, hosted here, so both hooks decide alike; it calls the engine's agent side in this
 * process with the protocol's own validation and durability (hook-http-link.ts) rather than
 * dialling the daemon's own socket, which cost more than the decision. Returns the
 * stop function, or undefined.
 */
export async function startHookHttp(
  o: HookHttpStartOptions,
): Promise<(() => Promise<void>) | undefined> {
  let config;
  try {
    config = readHookHttpConfig(o.home);
  } catch (error) {
    o.print(`gatehouse: http hook not served: ${error instanceof Error ? error.message : error}`);
    return undefined;
  }
  if (!config) return undefined;
  const env = { ...o.env, GATEHOUSE_SOCKET: o.socketPath };
  let warnedOldInstall = false;
  const server = new HookHttpServer({
    port: config.port,
    secret: config.secret,
    agents: HTTP_HOOK_AGENTS,
    handle: async (agent, payload, headers) => {
      const load = HOOK_ADAPTERS[agent as (typeof HTTP_HOOK_AGENTS)[number]];
      if (!load) return undefined;
      const sent = agentEnvironmentSent(headers);
      if (!warnedOldInstall) {
        // The headers the entries predate: those the sent values lack (said once).
        const missing = Object.entries(AGENT_ENV_HEADERS)
          .filter(([name]) => !(name in sent))
          .map(([, header]) => header);
        if (missing.length) {
          warnedOldInstall = true;
          o.print(
            `gatehouse: WARNING: Claude Code's http hook entries predate the ${missing.join(', ')} headers: run \`gatehouse hook claude-code --install --http\` again. Until then its commands are judged with the daemon's values of those variables, not Claude Code's.`,
          );
        }
      }
      const { answer, notes } = await answerHookPayload(
        await load(),
        payload,
        { ...env, ...sent },
        o.socketPath,
        {
          open: () => new EngineHookLink(o.engine),
          // Claude Code's environment, which its commands inherit, is not the daemon's, and
          // its headers could carry a secret variable only by its value (the token itself),
          // never whether it is set: every one counts as held, so a command printing the
          // whole environment asks.
          secretVariables: GATEHOUSE_SECRET_VARIABLES,
        },
      );
      for (const note of notes) if (note.startsWith('cannot')) o.print(`gatehouse hook: ${note}`);
      return answer;
    },
  });
  try {
    await server.start();
  } catch (error) {
    // Fail closed: the installed hooks (onFailure "block") block every call until this is fixed.
    o.print(
      `gatehouse: WARNING: cannot serve the http hook on 127.0.0.1:${config.port} (${error instanceof Error ? error.message : error}); Claude Code's http hooks block every tool call until Gatehouse serves it. Free the port, or run \`gatehouse hook claude-code --install\` for the command hook (the port is in ${hookHttpConfigPath(o.home)}).`,
    );
    return undefined;
  }
  o.print(`gatehouse: http hook on http://127.0.0.1:${config.port}/hooks/claude-code`);
  return () => server.close();
}

/**
 * Claude Code's own values of {@link AGENT_ENV_HEADERS}, as its http hook sent them (an empty
 * header: unset there), to stand in for the daemon's; a header its entries predate is left
 * out, so the daemon's own value stands in, as it did.
 */
export function agentEnvironmentSent(
  headers: IncomingHttpHeaders,
): Record<string, string | undefined> {
  const sent: Record<string, string | undefined> = {};
  for (const [name, header] of Object.entries(AGENT_ENV_HEADERS)) {
    const value = headers[header.toLowerCase()];
    if (typeof value === 'string') sent[name] = value || undefined;
  }
  return sent;
}
