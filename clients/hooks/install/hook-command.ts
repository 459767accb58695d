import { resolve } from 'node:path';
import { relayScriptBeside } from '../../../shared/node/relay-script';
import { resolveHome, resolveSocketPath } from '../../../shared/node/socket-path';

const quote = (s: string): string =>
  /^[\w./:\\-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The `GATEHOUSE_HOME=… GATEHOUSE_SOCKET=…` assignments the installed command carries: only
 * those that differ from where the hook would look by default, so an agent started from
 * another shell still reaches this Gatehouse.
 */
export function gatehouseEnvPrefix(env: NodeJS.ProcessEnv): string {
  const bare = { ...env, GATEHOUSE_HOME: undefined, GATEHOUSE_SOCKET: undefined };
  const parts: string[] = [];
  if (env.GATEHOUSE_HOME && resolve(env.GATEHOUSE_HOME) !== resolve(resolveHome(bare)))
    parts.push(`GATEHOUSE_HOME=${quote(resolve(env.GATEHOUSE_HOME))}`);
  const withHome = { ...bare, GATEHOUSE_HOME: env.GATEHOUSE_HOME };
  if (
    env.GATEHOUSE_SOCKET &&
    resolve(env.GATEHOUSE_SOCKET) !== resolve(resolveSocketPath(withHome))
  )
    parts.push(`GATEHOUSE_SOCKET=${quote(resolve(env.GATEHOUSE_SOCKET))}`);
  return parts.map((p) => `${p} `).join('');
}

/**
 * The command written into an agent's config: this very Gatehouse, by absolute paths, so PATH
 * does not matter, with the Gatehouse location when it is not the default. It runs the relay's
 * own file (dist/hook/gatehouse-hook.cjs) where there is one: the same relay the launcher
 * would load for `gatehouse hook <agent>`, one file and one module resolution fewer on every
 * tool call.
 */
export function defaultHookCommand(
  agent: string,
  env: NodeJS.ProcessEnv = process.env,
  /** Assignments the command always sets (the wait, where it must match the timeout written). */
  pinned: Record<string, string> = {},
  script = process.argv[1] ?? 'gatehouse',
  node = process.execPath,
): string {
  const q = (s: string) => (/^[\w./:\\-]+$/.test(s) ? s : JSON.stringify(s));
  // The hook runs before every tool call and makes no TLS connection, so it skips loading
  // extra CA certificates: with NODE_EXTRA_CA_CERTS set, Node parses the whole bundle at
  // start-up, which measured 50-80 ms of a ~100 ms hook here. It also runs without the
  // agent's NODE_OPTIONS: V8 flags there (a shell's `--max-old-space-size=4096`, say) make V8
  // refuse the relay's compiled code (scripts/relay-image.mjs), and a `--require` there would
  // load its module into every hook. (POSIX shells only.)
  const posix = process.platform !== 'win32';
  const assignments = Object.entries(pinned)
    .map(([k, v]) => `${k}=${quote(v)} `)
    .join('');
  const prefix = posix
    ? `NODE_EXTRA_CA_CERTS= NODE_OPTIONS= ${gatehouseEnvPrefix(env)}${assignments}`
    : '';
  const relay = relayScriptBeside(script);
  if (relay) return `${prefix}${q(node)} ${q(relay)} hook ${agent}`;
  return /\.m?js$/.test(script)
    ? `${prefix}${q(node)} ${q(resolve(script))} hook ${agent}`
    : `${prefix}${q(script)} hook ${agent}`;
}
