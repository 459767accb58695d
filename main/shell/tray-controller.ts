import type { GatehouseEvent } from '../../shared/events';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type { AdminService } from '../server/admin-port';
import {
  MAX_LISTED_REQUESTS,
  trayModel,
  type ConservativeSession,
  type TrayCommand,
  type TrayModel,
  type TrayState,
} from './tray-model';

/** The settings key behind the tray's "Quiet hours" checkbox. */
export const QUIET_HOURS_KEY = 'notifications.quietHours.enabled';

export interface TrayControllerDeps {
  admin: AdminService;
  /** Draws a model; in the app a {@link TrayService}. */
  tray: { render(model: TrayModel): void };
  windows: { open(): void; openRequest(requestId: string): void };
  /** The shell-only "start at login" setting (electron-store + app.setLoginItemSettings). */
  startAtLogin: { get(): boolean; set(enabled: boolean): void };
  quit(): void;
  /** Where failures of background refreshes and menu commands go (a log in the app). */
  onError(error: unknown): void;
}

/** How often the tray reloads to follow the hub link, which sends no engine event. */
export const HUB_REFRESH_MS = 15_000;

/**
 * Keeps the tray in step with the engine: loads pending requests, status and the quiet-hours
 * setting from the admin service, reloads when an event says they changed, and runs the
 * menu's commands against the admin service.
 */
export class TrayController {
  private state: TrayState;
  private unsubscribe: (() => void) | null = null;
  private refreshing: Promise<void> | null = null;
  private dirty = false;
  private hubTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: TrayControllerDeps) {
    this.state = {
      pending: [],
      paused: false,
      openBreakers: [],
      conservative: [],
      quietHours: false,
      startAtLogin: deps.startAtLogin.get(),
    };
  }

  /** Subscribes to engine events, then draws the tray from a first full load. */
  async start(): Promise<void> {
    this.unsubscribe = this.deps.admin.subscribe((event) => this.onEvent(event));
    // The hub link goes up and down without an engine event: looked at again now and then.
    this.hubTimer = setInterval(() => this.refreshInBackground(), HUB_REFRESH_MS);
    this.hubTimer.unref?.();
    this.render();
    await this.refresh();
  }

  stop(): void {
    clearInterval(this.hubTimer);
    this.hubTimer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The state last drawn, for tests and diagnostics. */
  get current(): Readonly<TrayState> {
    return this.state;
  }

  /**
   * Reloads from the admin service. Calls made while a load runs are folded into one more
   * load after it, so a burst of events costs two loads, not one per event.
   */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.dirty = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.dirty = false;
        await this.load();
      } while (this.dirty);
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Runs one menu command. Errors go to `onError`; the tray never throws into Electron. */
  async run(command: TrayCommand): Promise<void> {
    try {
      await this.execute(command);
    } catch (error) {
      this.deps.onError(error);
    }
  }

  private async execute(command: TrayCommand): Promise<void> {
    const { admin } = this.deps;
    switch (command.type) {
      case 'open-request':
        return this.deps.windows.openRequest(command.requestId);
      case 'open':
        return this.deps.windows.open();
      case 'set-quiet-hours':
        await admin.invoke('settings.set', { key: QUIET_HOURS_KEY, value: command.enabled });
        return this.refresh();
      case 'pause-all':
        await admin.invoke('pause', { reason: 'paused from the tray' });
        return this.refresh();
      case 'resume-all':
        await admin.invoke('resume', { reason: 'resumed from the tray' });
        return this.refresh();
      case 'recover-session':
        // The result arrives as a mode change; a refused recovery leaves the item in place.
        await admin.invoke('guards.recover', { sessionId: command.sessionId });
        return this.refresh();
      case 'set-start-at-login':
        this.deps.startAtLogin.set(command.enabled);
        this.state = { ...this.state, startAtLogin: this.deps.startAtLogin.get() };
        return this.render();
      case 'quit':
        return this.deps.quit();
    }
  }

  private async load(): Promise<void> {
    const { admin } = this.deps;
    const [pending, status, quiet, breakers] = await Promise.all([
      // Only the head the menu shows: the counts come from status, so a long queue costs
      // the tray one small page, not every row.
      admin.invoke('pending.list', { order: 'attention', limit: MAX_LISTED_REQUESTS }),
      admin.invoke('status', {}),
      admin.invoke('settings.get', { key: QUIET_HOURS_KEY }),
      this.loadOpenBreakers(),
    ]);
    this.state = {
      ...this.state,
      pending: pending.requests,
      waiting: status.pending,
      timedOut: status.timedOut,
      agentsAway: status.pendingAgentsAway ?? { paused: 0, killed: 0, gone: 0 },
      paused: status.paused,
      quietHours: quiet.value === true,
      openBreakers: breakers?.open ?? this.state.openBreakers,
      conservative: breakers ? await this.withAgents(breakers.conservative) : [],
    };
    if (status.hub)
      this.state.hub = {
        url: status.hub.url,
        machineName: status.hub.machineName,
        connected: status.hub.connected,
        ...(status.hub.error ? { error: status.hub.error } : {}),
        shownOnHub: status.hub.shownOnHub.length,
      };
    else delete this.state.hub;
    this.render();
  }

  /**
   * Open breakers as the guardrails list them, so the tray is right after a restart too.
   * Undefined when the core runs without guardrails: the tray then goes by trip and reset
   * events alone.
   */
  private async loadOpenBreakers(): Promise<
    { open: string[]; conservative: ConservativeSession[] } | undefined
  > {
    try {
      const { breakers } = await this.deps.admin.invoke('guards.breakers', {});
      const open = breakers.filter((b) => b.state === 'open');
      return {
        open: open.filter((b) => b.kind !== 'safety_switch').map((b) => b.name),
        conservative: open
          .filter((b) => b.kind === 'safety_switch')
          .map((b) => ({
            sessionId: b.name.slice('safety_switch:'.length),
            ...(b.reason ? { reason: b.reason } : {}),
          })),
      };
    } catch (error) {
      if (error instanceof GatehouseError && error.code === ErrorCode.MethodNotFound) {
        return undefined;
      }
      throw error;
    }
  }

  /** Names the agents of conservative sessions (one `sessions.list` when there are any). */
  private async withAgents(sessions: ConservativeSession[]): Promise<ConservativeSession[]> {
    if (sessions.length === 0) return sessions;
    const { sessions: active } = await this.deps.admin.invoke('sessions.list', {
      status: 'active',
      limit: 500,
    });
    const agents = new Map(active.map((s) => [s.sessionId, s.agent]));
    return sessions.map((s) => {
      const agent = agents.get(s.sessionId);
      return agent ? { ...s, agent } : s;
    });
  }

  private onEvent(event: GatehouseEvent): void {
    switch (event.type) {
      // Drawn at once from the event, then confirmed by a reload (guards.breakers).
      case 'guard.tripped':
        if (event.verdict.state === 'open') this.setBreaker(event.verdict.breaker, true);
        return this.refreshInBackground();
      case 'guard.reset':
        this.setBreaker(event.breaker, false);
        return this.refreshInBackground();
      case 'mode.changed':
      case 'request.created':
      case 'request.decided':
      case 'request.timed_out':
      case 'request.cancelled':
      case 'agent.control':
      case 'settings.changed':
      case 'session.ended': // its waiting requests now count as from a gone agent
      case 'session.connection': // the asking agent left, or came back
        return this.refreshInBackground();
      default:
        return;
    }
  }

  private refreshInBackground(): void {
    this.refresh().catch((error: unknown) => this.deps.onError(error));
  }

  private setBreaker(name: string, open: boolean): void {
    const others = this.state.openBreakers.filter((b) => b !== name);
    this.state = { ...this.state, openBreakers: open ? [...others, name] : others };
    this.render();
  }

  private render(): void {
    this.deps.tray.render(trayModel(this.state));
  }
}
