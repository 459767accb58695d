import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * Where Gatehouse keeps its data: `$GATEHOUSE_HOME`, else the platform's per-user data dir.
 * The daemon and every client resolve paths with these two functions, so they always agree.
 */
export function resolveHome(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (env.GATEHOUSE_HOME) return env.GATEHOUSE_HOME;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Gatehouse');
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Gatehouse');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'gatehouse');
}

/** The agent socket's path, resolved as docs/protocol.md "Transport" says. */
export function resolveSocketPath(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (env.GATEHOUSE_SOCKET) return env.GATEHOUSE_SOCKET;
  if (platform === 'win32') return `\\\\.\\pipe\\gatehouse-${userInfo().username}`;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'gatehouse', 'agent.sock');
  return join(resolveHome(env, platform), 'agent.sock');
}
