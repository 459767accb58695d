import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DashboardSettings } from '../../shared/settings/dashboard';
import { RemoteLinkServer, isLoopbackAddress } from './remote-server';

/** A start that cannot go on because of a setting: one line, naming the setting. */
export class ListenerSettingError extends Error {}

/**
 * Starts the remote listener when `dashboard.remote.enabled`, saying at start what it serves
 * and warning when it serves plain HTTP beyond this machine. Resolves with its stop, or
 * undefined when remote reach is off.
 */
export async function startRemoteListener(o: {
  settings: DashboardSettings['remote'];
  pages: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  print: (line: string) => void;
  /** Overrides `port` (tests: 0). */
  port?: number | undefined;
  /** The loopback dashboard's origin, when it runs (for `dashboard.remote.dashboard`). */
  dashboardOrigin?: string | undefined;
}): Promise<(() => Promise<void>) | undefined> {
  const s = o.settings;
  if (!s.enabled) return undefined;
  const hasTls = s.tls.cert !== '' || s.tls.key !== '';
  if (hasTls && (s.tls.cert === '' || s.tls.key === ''))
    throw new ListenerSettingError(
      'dashboard.remote.tls needs both cert and key (or neither, for plain HTTP)',
    );
  const server = new RemoteLinkServer({
    pages: o.pages,
    bind: s.bind,
    port: o.port ?? s.port,
    publicUrl: s.publicUrl,
    ...(hasTls ? { tls: { cert: s.tls.cert, key: s.tls.key } } : {}),
    ...(s.dashboard && o.dashboardOrigin ? { dashboardOrigin: o.dashboardOrigin } : {}),
  });
  const { url } = await server.start();
  o.print(
    `gatehouse: decision links served remotely at ${url}${s.publicUrl ? ` as ${s.publicUrl}` : ''} (${s.dashboard && o.dashboardOrigin ? 'pages and dashboard' : 'pages only'})`,
  );
  if (s.dashboard && !o.dashboardOrigin)
    o.print(
      'gatehouse: warning: dashboard.remote.dashboard is on but no loopback dashboard runs here (--no-dashboard or desktop mode): only the decision pages are served remotely',
    );
  for (const warning of remoteStartWarnings(s)) o.print(`gatehouse: warning: ${warning}`);
  return () => server.close();
}

/** What the person should know about a remote listener's settings before trusting it. */
export function remoteStartWarnings(s: DashboardSettings['remote']): string[] {
  const warnings: string[] = [];
  if (s.tls.cert === '' && !isLoopbackAddress(s.bind))
    warnings.push(
      `the remote listener on ${s.bind} speaks plain HTTP, so decision links cross the network unencrypted; set dashboard.remote.tls.cert and .key, or bind 127.0.0.1 behind an HTTPS reverse proxy (on a Tailscale address, Tailscale encrypts the traffic itself)`,
    );
  if (!s.publicUrl)
    warnings.push(
      "dashboard.remote.publicUrl is empty: links name this machine's loopback dashboard, which a phone cannot open",
    );
  return warnings;
}
