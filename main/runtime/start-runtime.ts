import { createCore, type Core, type CoreOptions } from '../core';
import type { DesktopNotifier } from '../notify/desktop-port';
import type { RequestUrl } from '../notify/compose';
import { startNotifier } from '../notify/start-notifier';
import { consoleNotifyLogger, type NotifyLogger } from '../notify/types';
import { notifyLinks } from '../remote/notify-links';
import { ntfyButtons } from '../remote/ntfy-buttons';
import { startNtfyReplies } from '../remote/start-ntfy-replies';
import { startRemoteListener } from '../remote/start-remote';
import { startTelegram } from '../remote/start-telegram';
import { startSlack } from '../remote/start-slack';
import { startDiscord } from '../remote/start-discord';
import { withWayBack } from '../remote/chat-way-back-health';
import type { ChatAppDeps } from '../remote/chat-app';
import { ensureLinkKey } from '../remote/decision-links';
import { ChatButtonsRepository } from '../store/chat-buttons-repository';
import { systemClock } from '../../shared/node/system-clock';
import { startHookHttp } from '../server/hook-http-start';
import { startHubLink } from '../hub-link/start-hub-link';
import { startDashboard } from './start-dashboard';

/** A person's Approve or Deny on a desktop notice. */
export type DesktopDecide = (requestId: string, decision: 'approve' | 'deny') => Promise<void>;

export interface RuntimeOptions {
  home: string;
  socketPath: string;
  /** Read for the http hook's relay and the headless desktop notices. */
  env: NodeJS.ProcessEnv;
  /** The rest of the core's options (limits, database cap, Electron's SQLite build…). */
  core?: Omit<CoreOptions, 'home' | 'socketPath'>;
  /**
   * Serve the loopback dashboard (headless mode), on the port this gives for the
   * `dashboard.port` setting. Absent in the desktop app, whose window is its dashboard.
   */
  dashboard?: { port: (setting: number) => number; staticDir: string };
  /** The remote listener's port over `dashboard.remote.port` (tests: 0). */
  remotePort?: number;
  /**
   * The root's desktop notifier: notify-send or node-notifier headless, Electron's
   * Notification in the desktop app. `decide` records the person's click as `desktop`;
   * `requestUrl` is the dashboard page of a request, when a dashboard runs.
   */
  desktop(o: { decide: DesktopDecide; requestUrl?: RequestUrl }): DesktopNotifier & {
    stop?(): void;
  };
  /** Start-up lines, each beginning `gatehouse: `. */
  print(line: string): void;
  /** Where the notifier and the reply topic report failures (default: stderr). */
  log?: NotifyLogger;
}

export interface Runtime {
  core: Core;
  /** The dashboard's URL (with its secret) and origin, when one runs. */
  dashboard?: { url(): string; origin: string };
  /** Stops everything in the reverse order of starting; the core closes last. */
  stop(): Promise<void>;
}

/**
 * Everything a running Gatehouse is, built once for both roots (main/daemon.ts headless,
 * main/shell/electron-main.ts desktop), each step only over what the steps before built:
 *   1. the core (main/core.ts: database, engine, admin service), then its agent socket;
 *   2. the loopback dashboard over the admin service, when asked for;
 *   3. the remote listener for decision links (`dashboard.remote`);
 *   4. the notifier with the root's desktop notices, and the decision links it carries;
 *   5. the reply topic (ntfy replies redeemed as decisions);
 *   6. the http hook, answered by the engine in this process.
 * The dashboard and the notifier attach to the core (`core.attached`) once they run, for
 * `status` and `notifications.test`: they need the admin service, so they come after it.
 * When a step fails, what started is stopped and the core closed before the error goes on.
 */
export async function startRuntime(o: RuntimeOptions): Promise<Runtime> {
  const log = o.log ?? consoleNotifyLogger;
  const core = createCore({ ...o.core, home: o.home, socketPath: o.socketPath });
  const stops: (() => Promise<void> | void)[] = [];
  const stop = async (): Promise<void> => {
    for (const s of stops.reverse()) await s();
    stops.length = 0;
    await core.close();
  };
  try {
    await core.listen();
    const dashboard = o.dashboard ? await startDashboard(core, o.home, o.dashboard) : undefined;
    if (dashboard) stops.push(dashboard.stop);
    const stopRemote = await startRemoteListener({
      settings: core.settings.get().dashboard.remote,
      pages: core.links.pages('remote'),
      print: o.print,
      dashboardOrigin: dashboard?.origin,
      port: o.remotePort,
    });
    if (stopRemote) stops.push(stopRemote);
    const requestUrl: RequestUrl | undefined = dashboard
      ? (id) => `${dashboard.origin}#request=${id}`
      : undefined;
    const desktop = o.desktop({
      decide: async (requestId, decision) => {
        await core.admin.invoke('decide', {
          requestId,
          decision,
          via: 'desktop',
          ...(decision === 'deny' ? { reason: 'denied from the desktop notification' } : {}),
        });
      },
      ...(requestUrl ? { requestUrl } : {}),
    });
    // What every chat app needs from the core: one store, key and audit for all.
    const chat: ChatAppDeps = {
      getSettings: () => core.settings.get(),
      subscribe: (listener) => core.admin.subscribe(listener),
      links: core.links.links,
      decider: core.links.decider,
      store: new ChatButtonsRepository(core.db),
      key: ensureLinkKey(o.home),
      clock: o.core?.clock ?? systemClock,
      getRequest: async (requestId) =>
        (await core.admin.invoke('request.get', { requestId })).request,
      audit: async (type, fields) => {
        core.engine.recordAudit(type, fields);
        await core.engine.durable();
      },
      log,
    };
    const telegram = startTelegram(chat);
    stops.push(() => telegram.stop());
    stops.push(
      core.attached.attachChat({
        pause: (_app, ms) => telegram.pause(ms),
        telegramChats: (waitS) => telegram.findChats(waitS),
      }),
    );
    const slack = startSlack(chat);
    stops.push(() => slack.stop());
    const discord = startDiscord(chat);
    stops.push(() => discord.stop());
    const notifier = startNotifier({
      admin: core.admin,
      getSettings: () => core.settings.get(),
      desktop,
      // The secret never goes into a notification: webhooks and email leave the machine.
      ...(requestUrl ? { requestUrl } : {}),
      linksFor: notifyLinks(core.links.links),
      ntfyButtonsFor: ntfyButtons({
        links: core.links.links,
        dashboard: () => core.settings.get().dashboard,
      }),
      telegramButtons: telegram.buttons,
      slackButtons: slack.buttons,
      discordButtons: discord.buttons,
      log,
    });
    const detachNotifier = core.attached.attachNotifier(
      withWayBack(notifier, {
        telegram: () => telegram.wayBack(),
        slack: () => slack.wayBack(),
        discord: () => discord.wayBack(),
      }),
    );
    stops.push(() => {
      detachNotifier();
      notifier.stop();
      desktop.stop?.();
    });
    const replies = startNtfyReplies({
      home: o.home,
      getSettings: () => core.settings.get(),
      subscribe: (listener) => core.admin.subscribe(listener),
      decider: core.links.decider,
      log,
    });
    stops.push(() => replies.stop());
    const stopHookHttp = await startHookHttp({
      home: o.home,
      socketPath: o.socketPath,
      env: o.env,
      print: o.print,
      engine: core.engine,
    });
    if (stopHookHttp) stops.push(stopHookHttp);
    // The team hub, when this machine joined one (`gatehouse hub join`): outbound only.
    const hubLink = startHubLink(core, { desktop });
    stops.push(() => hubLink.stop());
    return {
      core,
      ...(dashboard ? { dashboard: { url: dashboard.url, origin: dashboard.origin } } : {}),
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
