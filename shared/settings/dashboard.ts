import { z } from 'zod';

/** The loopback dashboard's port when `dashboard.port` is not changed. */
export const DEFAULT_DASHBOARD_PORT = 7417;
/** The remote listener's port when `dashboard.remote.port` is not changed. */
export const DEFAULT_REMOTE_PORT = 7418;
/** How long a decision link works (24 hours) when `dashboard.linkExpiryMs` is not changed. */
export const DEFAULT_LINK_EXPIRY_MS = 24 * 3_600_000;

/** An empty string, or an absolute http(s) URL without query or fragment. */
const OptionalBaseUrl = z
  .string()
  .refine(
    (s) => s === '' || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(s),
    'expected an http(s) base URL such as https://gatehouse.example.net/, or ""',
  );

const Port = z.number().int().min(0).max(65_535);

export const RemoteTlsSettings = z
  .object({
    cert: z
      .string()
      .default('')
      .describe('Path to the PEM certificate chain the remote listener serves HTTPS with.'),
    key: z.string().default('').describe('Path to the PEM private key of that certificate.'),
  })
  .meta({ title: 'HTTPS' });

export const RemoteSettings = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        'Serve decision links to other machines (a phone on your Tailscale network or LAN, or behind your reverse proxy). Off: links work on this machine only.',
      ),
    bind: z
      .string()
      .default('127.0.0.1')
      .describe(
        'Address the remote listener binds, e.g. your Tailscale address (100.x.y.z) or 127.0.0.1 behind a reverse proxy. Without TLS on a non-loopback address Gatehouse warns at start.',
      ),
    port: Port.default(DEFAULT_REMOTE_PORT).describe('Port of the remote listener.'),
    publicUrl: OptionalBaseUrl.default('').describe(
      "Base URL put into decision links, as the phone reaches Gatehouse (e.g. https://gatehouse.tailnet.ts.net/). The remote listener only answers requests whose Host is this URL's host.",
    ),
    dashboard: z
      .boolean()
      .default(false)
      .describe(
        "Also serve the full dashboard on the remote listener (sign in once with the URL gatehouse dashboard prints, its host replaced by publicUrl's). Off: only the decision pages. Needs the loopback dashboard running.",
      ),
    tls: RemoteTlsSettings.prefault({}).describe(
      'Certificate and key for HTTPS on the remote listener; both empty: plain HTTP.',
    ),
  })
  .meta({ title: 'Remote access' });

export const DashboardSettings = z
  .object({
    port: Port.default(DEFAULT_DASHBOARD_PORT).describe(
      'Loopback port of the dashboard, fixed so that links and bookmarks survive restarts; 0 picks a free port at each start. Takes effect at the next start.',
    ),
    linkExpiryMs: z
      .number()
      .int()
      .min(60_000)
      .max(30 * 24 * 3_600_000)
      .default(DEFAULT_LINK_EXPIRY_MS)
      .meta({ title: 'Links work for', unit: 'ms' })
      .describe('How long a decision link (email, ntfy, SMS, webhook, gatehouse link) works.'),
    remote: RemoteSettings.prefault({}).describe('Decision links from other machines (opt-in).'),
  })
  .meta({
    title: 'Dashboard and decision links',
    description:
      'Where the dashboard listens, how long decision links work, and whether a phone can reach them.',
  });
export type DashboardSettings = z.infer<typeof DashboardSettings>;
