import { dirname } from 'node:path';
import { createCore, type Core } from './core';
import { startNotifier } from './notify/index';
import { headlessDesktop } from './notify/headless-desktop';
import { startNtfyReplies } from './remote/start-ntfy-replies';
import { consoleNotifyLogger } from './notify/types';
import type { NotificationDispatcher } from './notify/dispatcher';
import { resolveHome, resolveSocketPath } from './paths';
import { rendererDir } from './resources';
import { AlreadyRunningError } from './server/agent-socket';
import { SocketDirError } from '../shared/node/socket-dir';
import { DataFolderError } from '../shared/node/make-dirs';
import { DataFolderInUseError } from './store/data-folder-lock';
import { socketLimitsFromEnv } from './server/socket-limits';
import { DashboardServer } from './server/dashboard-server';
import { channelBoundAdmin } from './server/transport-channel';
import { DashboardSessions, dashboardSecretPath } from './server/dashboard-sessions';
import { ListenerSettingError, startRemoteListener } from './remote/start-remote';
import { RemoteListenerError } from './remote/remote-server';
import { startHookHttp } from './server/hook-http-start';
import { relayScriptBeside } from '../clients/hooks/install/hook-command';
import { startHubLink } from './hub-link/start-hub-link';

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
 * The composition root of headless mode. Wiring order (each step only uses what the steps
 * before built):
 *   1. paths and limits from the environment;
 *   2. the core, in its own documented order (main/core.ts: database, unit of work,
 *      settings, guardrails, engine, admin service), then the agent socket (single instance);
 *   3. the dashboard over the core's admin service;
 *   4. the notifier (`startNotifier`, as desktop mode does).
 * The one late fact is the dashboard's URL: `status` reads it when asked, since the dashboard
 * can only listen once the admin service it serves exists. Stopping reverses the order.
 */
export async function startDaemon(o: DaemonOptions = {}): Promise<RunningDaemon> {
  const env = o.env ?? process.env;
  const print = o.print ?? ((line: string) => console.log(line));
  const home = resolveHome(env);
  const socketPath = resolveSocketPath(env);
  // The dashboard's URL as of now: it follows a rotation of its secret.
  let dashboardUrl: () => string | undefined = () => undefined;
  // Set once the notifier runs (after the core and the dashboard); `status` reads it.
  const notifierRef: { current?: NotificationDispatcher } = {};
  const maxMb = Number(env.GATEHOUSE_DB_MAX_MB);
  const core = createCore({
    home,
    socketPath,
    dashboardUrl: () => dashboardUrl(),
    ...(o.dashboard !== false && env.GATEHOUSE_DASHBOARD_PORT
      ? {
          dashboardPortFromEnv: {
            variable: 'GATEHOUSE_DASHBOARD_PORT',
            port: dashboardPort(env, 0),
          },
        }
      : {}),
    channelHealth: () => notifierRef.current?.health(),
    testChannel: (channel) => notifierRef.current?.test(channel),
    ...(maxMb > 0 ? { maxDatabaseBytes: Math.floor(maxMb * 1024 * 1024) } : {}),
    socketLimits: socketLimitsFromEnv(env),
    ...programDirOption(),
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
    const port = dashboardPort(env, core.settings.get().dashboard.port);
    const dashboard = new DashboardServer({
      // Every decision through the dashboard's API is recorded as `dashboard`.
      admin: channelBoundAdmin(core.admin, 'dashboard'),
      staticDir: rendererDir(),
      host: '127.0.0.1',
      port,
      // The kept secret: the printed URL signs a browser in for good (cookie).
      sessions: new DashboardSessions(dashboardSecretPath(home)),
      pages: core.links.pages('local'),
    });
    const address = await dashboard.start().catch(async (error: NodeJS.ErrnoException) => {
      await core.close().catch(() => undefined);
      throw error.code === 'EADDRINUSE'
        ? new ListenerSettingError(
            `dashboard port ${port} is in use: set dashboard.port to a free port (gatehouse config set dashboard.port N; 0 picks any), or start with GATEHOUSE_DASHBOARD_PORT=N`,
          )
        : error;
    });
    dashboardUrl = () => dashboard.url();
    dashboardOrigin = address.origin;
    stops.push(() => dashboard.close());
  }
  const stopRemote = await startRemoteListener({
    settings: core.settings.get().dashboard.remote,
    pages: core.links.pages('remote'),
    print,
    ...(dashboardOrigin ? { dashboardOrigin } : {}),
    ...(env.GATEHOUSE_REMOTE_PORT ? { port: Number(env.GATEHOUSE_REMOTE_PORT) } : {}),
  }).catch(async (error: unknown) => {
    for (const s of stops.reverse()) await s();
    await core.close().catch(() => undefined);
    throw error;
  });
  if (stopRemote) stops.push(stopRemote);
  const requestUrl = dashboardOrigin
    ? (id: string) => `${dashboardOrigin}#request=${id}`
    : undefined;
  const desktop = headlessDesktop({
    env,
    // A button on the notice: the person decides, recorded as `desktop`.
    decide: async (requestId, decision) => {
      await core.admin.invoke('decide', {
        requestId,
        decision,
        via: 'desktop',
        ...(decision === 'deny' ? { reason: 'denied from the desktop notification' } : {}),
      });
    },
    ...(requestUrl ? { requestUrl } : {}),
    log: consoleNotifyLogger,
  });
  const running = startNotifier({
    admin: core.admin,
    getSettings: () => core.settings.get(),
    desktop,
    // The secret never goes into a notification: webhooks and email leave the machine.
    ...(requestUrl ? { requestUrl } : {}),
    links: core.links.links,
  });
  notifierRef.current = running;
  const replies = startNtfyReplies({
    home,
    getSettings: () => core.settings.get(),
    subscribe: (listener) => core.admin.subscribe(listener),
    decider: core.links.decider,
  });
  stops.push(() => replies.stop());
  stops.push(() => {
    running.stop();
    desktop.stop();
  });
  const stopHookHttp = await startHookHttp({
    home,
    socketPath,
    env,
    print,
    engine: core.engine,
  });
  if (stopHookHttp) stops.push(stopHookHttp);
  // The team hub, when this machine joined one (`gatehouse hub join`): outbound only.
  const hubLink = startHubLink(core);
  stops.push(() => hubLink.stop());
  print(`gatehouse: listening on ${socketPath}`);
  print(`gatehouse: data in ${home}`);
  const url = dashboardUrl();
  if (url) print(`gatehouse: dashboard at ${url} (open it once: this browser stays signed in)`);
  print('gatehouse: ready');
  return {
    core,
    ...(url ? { dashboardUrl: url } : {}),
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
