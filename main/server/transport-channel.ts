import type { DecisionChannel } from '../../shared/domain';
import {
  adminMethods,
  isAdminMethod,
  type AdminMethod,
  type AdminParams,
  type AdminResult,
} from '../../shared/protocol/method-map';
import type { AdminService } from './admin-port';

/**
 * Which decision channels a caller of each transport may be recorded under. The channel of a
 * decision (`via`) is evidence in the audit trail, so it comes from the transport the call
 * arrived on, not from what its client says: a page on the dashboard cannot pass itself off as
 * a phone link, and nothing on the socket can claim `link:email`.
 */
const CHANNELS_BY_TRANSPORT = {
  // The loopback dashboard's HTTP API: one kind of client.
  dashboard: { recorded: 'dashboard', claimable: [] },
  // The desktop window's IPC (the notification's buttons call the admin service in-process).
  desktop: { recorded: 'desktop', claimable: [] },
  // The socket's admin role: the CLI and the MCP server say which they are; they hold the
  // same admin token, so this tells them apart for the person, not for security.
  socket: { recorded: 'socket', claimable: ['cli', 'mcp'] },
} as const satisfies Record<
  string,
  { recorded: DecisionChannel; claimable: readonly DecisionChannel[] }
>;
export type AdminTransport = keyof typeof CHANNELS_BY_TRANSPORT;

/** Admin methods whose params record a channel (`via`), read once from the method map. */
const METHODS_WITH_CHANNEL = new Set(
  Object.entries(adminMethods)
    .filter(([, spec]) => {
      const shape = (spec.params as { shape?: Record<string, unknown> }).shape;
      return shape !== undefined && Object.hasOwn(shape, 'via');
    })
    .map(([method]) => method),
);

/**
 * The params with `via` set by the transport, for every admin method that records one
 * (`decide`, `decideMany`, trusting a policy file, accepting a suggestion); other calls as
 * they are.
 */
export function withTransportChannel(
  transport: AdminTransport,
  method: string,
  params: unknown,
): unknown {
  if (!isAdminMethod(method) || !METHODS_WITH_CHANNEL.has(method)) return params;
  // Not an object: left for the method's schema to refuse.
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return params;
  const { recorded, claimable } = CHANNELS_BY_TRANSPORT[transport];
  const claimed = (params as { via?: unknown }).via;
  const via = (claimable as readonly unknown[]).includes(claimed) ? claimed : recorded;
  return { ...params, via };
}

/** The admin service as one transport's callers see it: every call's channel set by it. */
export function channelBoundAdmin(admin: AdminService, transport: AdminTransport): AdminService {
  return {
    async invoke<K extends AdminMethod>(method: K, params: AdminParams<K>) {
      return (await admin.invokeUnchecked(
        method,
        withTransportChannel(transport, method, params),
      )) as AdminResult<K>;
    },
    invokeUnchecked: (method, params) =>
      admin.invokeUnchecked(method, withTransportChannel(transport, method, params)),
    subscribe: (listener) => admin.subscribe(listener),
  };
}
