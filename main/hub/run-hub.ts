import { readFileSync } from 'node:fs';
import { resolveHome } from '../paths';
import { HubDatabaseError } from './store/open-database';
import { startHub, type RunningHub } from './hub-main';
import { OidcSettingsInput } from './hub-oidc-settings';
import { HubRefusal } from './hub-service';
import { DataFolderError } from '../../shared/node/make-dirs';

export interface HubCommandOptions {
  port: string;
  bind: string;
  databaseUrl?: string;
  tlsCert?: string;
  tlsKey?: string;
  publicUrl?: string;
  /** A JSON file of single sign-on settings (hub-oidc-settings.ts), applied at start. */
  ssoConfig?: string;
}

/** The hub's default port (`gatehouse hub --port N` to change it; 0 picks a free one). */
export const DEFAULT_HUB_PORT = 7230;

/**
 * `gatehouse hub`: runs the hub in the foreground until SIGINT or SIGTERM. The database is
 * `--database-url`, else GATEHOUSE_HUB_DATABASE_URL, else the embedded one in
 * `$GATEHOUSE_HOME/hub/data`. Returns the exit code.
 */
export async function runHubForeground(o: HubCommandOptions, env = process.env): Promise<number> {
  const port = Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`gatehouse hub: --port must be a port number, not "${o.port}"`);
    return 4;
  }
  if (!o.tlsCert !== !o.tlsKey) {
    console.error('gatehouse hub: --tls-cert and --tls-key go together');
    return 4;
  }
  let tls: { cert: string; key: string } | undefined;
  try {
    if (o.tlsCert && o.tlsKey)
      tls = { cert: readFileSync(o.tlsCert, 'utf8'), key: readFileSync(o.tlsKey, 'utf8') };
  } catch (error) {
    console.error(`gatehouse hub: cannot read the TLS files: ${(error as Error).message}`);
    return 1;
  }
  let sso: OidcSettingsInput | undefined;
  if (o.ssoConfig) {
    const read = readSsoConfig(o.ssoConfig);
    if (typeof read === 'string') {
      console.error(`gatehouse hub: --sso-config ${o.ssoConfig}: ${read}`);
      return 4;
    }
    sso = read;
  }
  let signalled: ((signal: string) => void) | undefined;
  const received = new Promise<string>((resolve) => (signalled = resolve));
  process.once('SIGINT', () => signalled?.('SIGINT'));
  process.once('SIGTERM', () => signalled?.('SIGTERM'));
  const databaseUrl = o.databaseUrl ?? (env.GATEHOUSE_HUB_DATABASE_URL || undefined);
  let hub: RunningHub;
  try {
    hub = await startHub({
      home: resolveHome(env),
      port,
      bind: o.bind,
      ...(databaseUrl ? { databaseUrl } : {}),
      ...(tls ? { tls } : {}),
      ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}),
      ...(sso ? { sso } : {}),
    });
  } catch (error) {
    if (error instanceof HubRefusal) {
      console.error(`gatehouse hub: --sso-config: ${error.message}`);
      return 1;
    }
    if (error instanceof HubDatabaseError || error instanceof DataFolderError) {
      console.error(`gatehouse hub: ${error.message}`);
      return 1;
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        `gatehouse hub: port ${port} on ${o.bind} is in use: choose another with --port N`,
      );
      return 1;
    }
    if (tls && /key|cert|PEM|asn1/i.test((error as Error).message)) {
      console.error(
        `gatehouse hub: the TLS certificate or key is not usable: ${(error as Error).message}`,
      );
      return 1;
    }
    throw error;
  }
  const signal = await received;
  console.error(`gatehouse hub: ${signal} received, stopping`);
  await hub.stop();
  return 0;
}

/**
 * The single sign-on settings of `--sso-config FILE`: JSON with the fields of `hub sso set`
 * (`issuer`, `clientId`, `providerName` …), the secret as `clientSecretFile` (a path, read
 * here) or left out to keep the stored one. The message of what is wrong otherwise.
 */
function readSsoConfig(file: string): OidcSettingsInput | string {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return (error as Error).message;
  }
  if (typeof raw !== 'object' || raw === null) return 'not a JSON object';
  const { clientSecretFile, ...rest } = raw as Record<string, unknown>;
  let clientSecret: string | undefined;
  if (typeof clientSecretFile === 'string') {
    try {
      clientSecret = readFileSync(clientSecretFile, 'utf8').trim();
    } catch (error) {
      return `cannot read clientSecretFile: ${(error as Error).message}`;
    }
  }
  const parsed = OidcSettingsInput.safeParse({
    ...rest,
    ...(clientSecret ? { clientSecret } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}`;
  }
  return parsed.data;
}
