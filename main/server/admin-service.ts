import type { GatehouseEvent } from '../../shared/events';
import type { ChannelHealth, HubLinkStatus } from '../../shared/protocol/admin-methods';
import type { TeamPolicyInfo } from '../../shared/policy/team-policy';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import {
  adminMethods,
  isAdminMethod,
  type AdminMethod,
  type AdminParams,
  type AdminParsedParams,
  type AdminResult,
} from '../../shared/protocol/method-map';
import { parseParams } from '../../shared/protocol/validate';
import { iso } from '../../shared/clock';
import type { Engine } from '../engine/engine';
import type { EventBus } from '../engine/kernel/event-bus';
import type { AdminService } from './admin-port';
import { storageFailure } from './rpc-error-replies';
import { readAgainAfter } from './read-only-calls';

/** One handler per admin method of the map: a method without one does not compile. */
type AdminHandlers = {
  [K in AdminMethod]: (p: AdminParsedParams<K>) => AdminResult<K> | Promise<AdminResult<K>>;
};

/** Facts about the running process that `status` reports. */
export interface RuntimeInfo {
  version: string;
  socketPath: string;
  home: string;
  startedAt: number;
  dashboardUrl?: () => string | undefined;
  /** The port an environment variable gave the dashboard, over the setting (see `status`). */
  dashboardPortFromEnv?: { variable: string; port: number };
  /** Each notification channel's health, when a notifier runs in this process. */
  channelHealth?: () => ChannelHealth[] | undefined;
  /** The hub link's state, when this machine joined a hub and the link runs here. */
  hubLink?: () => HubLinkStatus | undefined;
  /** The team policy version this machine runs (main/hub-link/team-policy-book.ts). */
  teamPolicy?: () => TeamPolicyInfo | undefined;
}

/** The handlers that live outside the engine: decision links (main/remote/). */
export type LinkAdminHandlers = Pick<AdminHandlers, 'request.link'>;
/**
 * Retention (main/store/retention-service.ts) and the audit chain (main/audit/): they work on
 * the database, not the engine.
 */
export type RetentionAdminHandlers = Pick<
  AdminHandlers,
  'retention.prune' | 'audit.verify' | 'audit.verifyHub' | 'audit.exportSignature' | 'audit.key'
>;

/** Setting up and trying notification channels (main/server/notify-admin.ts). */
export type NotifyAdminHandlers = Pick<
  AdminHandlers,
  'ntfy.setup' | 'notifications.test' | 'chat.pause' | 'chat.telegramChats' | 'chat.telegramUse'
>;

/**
 * The admin method table: `status`, the engine's capabilities' tables, and the handlers that
 * live outside the engine. `satisfies` fails the build for a method of the map none of them
 * has; {@link NoExtraAdminMethods} for one the map does not have.
 */
function adminHandlers(
  engine: Engine,
  runtime: RuntimeInfo,
  links: LinkAdminHandlers,
  notify: NotifyAdminHandlers,
  retention: RetentionAdminHandlers,
) {
  const h = engine.admin;
  return {
    status: () => {
      const dashboardUrl = runtime.dashboardUrl?.();
      const channels = runtime.channelHealth?.();
      const hub = runtime.hubLink?.();
      const teamPolicy = runtime.teamPolicy?.();
      const { pending, timedOut, pendingAgentsAway, activeSessions, agents, paused } = h.status();
      return {
        version: runtime.version,
        pid: process.pid,
        socketPath: runtime.socketPath,
        home: runtime.home,
        startedAt: iso(runtime.startedAt),
        pending,
        timedOut,
        pendingAgentsAway,
        activeSessions,
        agents,
        paused,
        ...(dashboardUrl ? { dashboardUrl } : {}),
        dashboardPortFromEnv: runtime.dashboardPortFromEnv,
        channels,
        hub,
        ...(teamPolicy ? { teamPolicy } : {}),
      };
    },
    // The engine's methods: the union of its capabilities' admin tables.
    ...h.table,
    ...links,
    ...notify,
    ...retention,
  } satisfies AdminHandlers;
}

/** Compile-time check: every handler of the table is a method of the map. */
type Exactly<T> = [T] extends [never] ? true : never;
export type NoExtraAdminMethods = Exactly<
  Exclude<keyof ReturnType<typeof adminHandlers>, AdminMethod>
>;
const noExtraAdminMethods: NoExtraAdminMethods = true;
void noExtraAdminMethods;

/**
 * The admin side of Gatehouse, one implementation for every transport. Parameters are
 * validated against the shared method map before a handler sees them.
 */
export class EngineAdminService implements AdminService {
  private readonly handlers: AdminHandlers;

  constructor(
    private readonly engine: Engine,
    private readonly bus: EventBus,
    runtime: RuntimeInfo,
    links: LinkAdminHandlers,
    notify: NotifyAdminHandlers,
    retention: RetentionAdminHandlers,
  ) {
    this.handlers = adminHandlers(engine, runtime, links, notify, retention);
  }

  async invoke<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>> {
    return (await this.invokeUnchecked(method, params)) as AdminResult<K>;
  }

  async invokeUnchecked(method: string, params: unknown): Promise<unknown> {
    if (!isAdminMethod(method))
      throw new GatehouseError(ErrorCode.MethodNotFound, `unknown admin method "${method}"`);
    const handler = this.handlers[method] as (p: unknown) => unknown;
    const parsed = parseParams(adminMethods[method].params, params);
    try {
      const result = await handler(parsed);
      // No transport reports a decision before it is committed.
      try {
        await this.engine.durable();
      } catch (error) {
        // Others' writes could not be stored (disk full): a read is made again and answered.
        if (!readAgainAfter(method, error)) throw error;
        return await handler(parsed);
      }
      return result;
    } catch (error) {
      // A failed write reads the same on every admin transport (HTTP, IPC, socket).
      throw storageFailure(error) ?? error;
    }
  }

  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    return this.bus.subscribe(listener);
  }
}
