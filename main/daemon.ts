import { createCore, type Core } from './core';
import { NodeNotifierDesktop, startNotifier } from './notify/index';
import { resolveHome, resolveSocketPath } from './paths';
import { rendererDir } from './resources';
import { AlreadyRunningError } from './server/agent-socket';
import { SocketDirError } from '../shared/node/socket-dir';
import { socketLimitsFromEnv } from './server/socket-limits';
import { DashboardServer } from './server/dashboard-server';
import { startHookHttp } from './server/hook-http-start';

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
 * The composition root of headless mode. Order: paths from the environment; the core
 * (database, engine, admin service); the agent socket (single instance); the dashboard;
 * the notifier. Stopping reverses it.
 */
export async function startDaemon(o: DaemonOptions = {}): Promise<RunningDaemon> {
  const env = o.env ?? process.env;
  const print = o.print ?? ((line: string) => console.log(line));
  const home = resolveHome(env);
  const socketPath = resolveSocketPath(env);
  let dashboardUrl: string | undefined;
  const maxMb = Number(env.GATEHOUSE_DB_MAX_MB);
  const core = createCore({
    home,
    socketPath,
    dashboardUrl: () => dashboardUrl,
    ...(maxMb > 0 ? { maxDatabaseBytes: Math.floor(maxMb * 1024 * 1024) } : {}),
    socketLimits: socketLimitsFromEnv(env),
  });
  try {
    await core.listen();
  } catch (error) {
    await core.close().catch(() => undefined);
    throw error;
  }
  const stops: (() => Promise<void> | void)[] = [];
  let dashboardOrigin: string | undefined;
  if (o.dashboard !== false) {
    const dashboard = new DashboardServer({
      admin: core.admin,
      staticDir: rendererDir(),
      host: '127.0.0.1',
      port: Number(env.GATEHOUSE_DASHBOARD_PORT ?? 0),
    });
    const address = await dashboard.start();
    dashboardUrl = address.url;
    dashboardOrigin = address.origin;
    stops.push(() => dashboard.close());
  }
  const notifier = startNotifier({
    admin: core.admin,
    getSettings: () => core.engine.settings.get(),
    desktop: new NodeNotifierDesktop(),
    // The secret never goes into a notification: webhooks and email leave the machine.
    ...(dashboardOrigin ? { requestUrl: (id: string) => `${dashboardOrigin}#request=${id}` } : {}),
  });
  stops.push(() => notifier.stop());
  const stopHookHttp = await startHookHttp({ home, socketPath, env, print });
  if (stopHookHttp) stops.push(stopHookHttp);
  print(`gatehouse: listening on ${socketPath}`);
  print(`gatehouse: data in ${home}`);
  if (dashboardUrl) print(`gatehouse: dashboard at ${dashboardUrl}`);
  print('gatehouse: ready');
  return {
    core,
    dashboardUrl,
    async stop() {
      for (const s of stops.reverse()) await s();
      await core.close();
    },
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
        `gatehouse: ${error.message}; stop it first or set GATEHOUSE_SOCKET to run another.`,
      );
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
