import { dirname } from 'node:path';
import type { Core } from './core';
import { headlessDesktop } from './notify/headless-desktop';
import { consoleNotifyLogger } from './notify/types';
import { resolveHome, resolveSocketPath } from './paths';
import { rendererDir } from './resources';
import { startRuntime } from './runtime/start-runtime';
import { AlreadyRunningError } from './server/agent-socket';
import { SocketDirError } from '../shared/node/socket-dir';
import { DataFolderError } from '../shared/node/make-dirs';
import { relayScriptBeside } from '../shared/node/relay-script';
import { DataFolderInUseError } from './store/data-folder-lock';
import { socketLimitsFromEnv } from './server/socket-limits';
import { ListenerSettingError } from './remote/start-remote';
import { RemoteListenerError } from './remote/remote-server';

export interface DaemonOptions {
  env?: NodeJS.ProcessEnv;
  /** Serve the dashboard on loopback (default true). */
  dashboard?: boolean;
  /** Where the start lines go. */
  print?: (line: string) => void;
}

export interface RunningDaemon {
  core: Core;
  dashboardUrl?: string;
  stop(): Promise<void>;
}

/**
 * The composition root of headless mode: the runtime both roots share
 * (main/runtime/start-runtime.ts: core and socket, dashboard, remote listener, notifier,
 * reply topic, http hook), with what headless mode adds: its settings from the environment,
 * the loopback dashboard, desktop notices through notify-send or node-notifier, and its
 * start lines. Stopping reverses the order.
 */
export async function startDaemon(o: DaemonOptions = {}): Promise<RunningDaemon> {
  const env = o.env ?? process.env;
  const print = o.print ?? ((line: string) => console.log(line));
  const home = resolveHome(env);
  const socketPath = resolveSocketPath(env);
  const maxMb = Number(env.GATEHOUSE_DB_MAX_MB);
  const runtime = await startRuntime({
    home,
    socketPath,
    env,
    core: {
      ...(o.dashboard !== false && env.GATEHOUSE_DASHBOARD_PORT
        ? {
            dashboardPortFromEnv: {
              variable: 'GATEHOUSE_DASHBOARD_PORT',
              port: dashboardPort(env, 0),
            },
          }
        : {}),
      ...(maxMb > 0 ? { maxDatabaseBytes: Math.floor(maxMb * 1024 * 1024) } : {}),
      socketLimits: socketLimitsFromEnv(env),
      ...programDirOption(),
    },
    ...(o.dashboard !== false
      ? {
          dashboard: {
            port: (setting: number) => dashboardPort(env, setting),
            staticDir: rendererDir(),
          },
        }
      : {}),
    ...(env.GATEHOUSE_REMOTE_PORT ? { remotePort: Number(env.GATEHOUSE_REMOTE_PORT) } : {}),
    desktop: ({ decide, requestUrl }) =>
      headlessDesktop({
        env,
        decide,
        ...(requestUrl ? { requestUrl } : {}),
        log: consoleNotifyLogger,
      }),
    print,
  });
  print(`gatehouse: listening on ${socketPath}`);
  print(`gatehouse: data in ${home}`);
  const url = runtime.dashboard?.url();
  if (url) print(`gatehouse: dashboard at ${url} (open it once: this browser stays signed in)`);
  print('gatehouse: ready');
  return {
    core: runtime.core,
    ...(url ? { dashboardUrl: url } : {}),
    stop: () => runtime.stop(),
  };
}

/** `gatehouse daemon`: runs in the foreground until SIGINT or SIGTERM. */
export async function runDaemonForeground(o: DaemonOptions = {}): Promise<number> {
  // Handlers go in first, so that a signal during start-up still stops cleanly.
  let signalled: ((signal: string) => void) | undefined;
  const received = new Promise<string>((resolve) => (signalled = resolve));
  const onSignal = (signal: string) => () => signalled?.(signal);
  process.once('SIGINT', onSignal('SIGINT'));
  process.once('SIGTERM', onSignal('SIGTERM'));
  let daemon: RunningDaemon;
  try {
    daemon = await startDaemon(o);
  } catch (error) {
    if (error instanceof AlreadyRunningError) {
      console.error(
        `gatehouse: ${error.message}; stop it first. A second Gatehouse needs its own data folder and socket: set both GATEHOUSE_HOME and GATEHOUSE_SOCKET.`,
      );
      return 1;
    }
    if (error instanceof ListenerSettingError || error instanceof RemoteListenerError) {
      console.error(`gatehouse: ${error.message}`);
      return 1;
    }
    if (error instanceof DataFolderInUseError || error instanceof DataFolderError) {
      console.error(`gatehouse: ${error.message}`);
      return 1;
    }
    if (error instanceof SocketDirError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const signal = await received;
  console.error(`gatehouse: ${signal} received, stopping`);
  try {
    await daemon.stop();
    return 0;
  } catch (error) {
    console.error('gatehouse: error while stopping:', error);
    return 1;
  }
}

/** `GATEHOUSE_DASHBOARD_PORT` when set (tests, a one-off start), else `dashboard.port`. */
function dashboardPort(env: NodeJS.ProcessEnv, setting: number): number {
  const fromEnv = env.GATEHOUSE_DASHBOARD_PORT;
  if (fromEnv === undefined || fromEnv === '') return setting;
  const port = Number(fromEnv);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ListenerSettingError(
      `GATEHOUSE_DASHBOARD_PORT must be a port number, not "${fromEnv}"`,
    );
  return port;
}

/**
 * The built program this daemon runs from (the `dist/` folder holding `hook/gatehouse-hook.cjs`,
 * which every installed hook command runs), to be guarded; none when it is not beside the
 * entry script (a daemon started in-process by tests).
 */
function programDirOption(): { programDir?: string } {
  const relay = relayScriptBeside(process.argv[1] ?? '');
  return relay ? { programDir: dirname(dirname(relay)) } : {};
}
