import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { makeDirs } from '../../../shared/node/make-dirs';
import { UsageError } from '../run-admin';
import { callHub, hubUrl } from './hub-http-client';

/** One hub's login: the personal token and whose it is. */
const HubLogin = z.object({
  token: z.string().min(1),
  name: z.string(),
  role: z.string(),
  at: z.string(),
  /** A CA the hub's certificate is checked against (PEM). */
  ca: z.string().optional(),
});
const HubLogins = z.object({ logins: z.record(z.string(), HubLogin) });
type HubLogins = z.infer<typeof HubLogins>;

/**
 * Where `gatehouse hub login` keeps personal tokens, by hub: inside GATEHOUSE_HOME, which the
 * engine protects as a whole (an agent reading it is asked about, critical), mode 0600 like
 * the admin token.
 */
export const hubLoginFile = (home: string): string => join(home, 'hub-login.json');

function readLogins(home: string): HubLogins {
  const file = hubLoginFile(home);
  if (!existsSync(file)) return { logins: {} };
  return HubLogins.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * The personal token for calls to `url`: GATEHOUSE_HUB_TOKEN when set, else the one
 * `gatehouse hub login URL` kept for that hub; with the CA kept at login, if any.
 */
export function personTokenFor(
  home: string,
  url: string,
  env = process.env,
): { token: string; ca?: string } {
  const login = readLogins(home).logins[hubUrl(url)];
  const ca = login?.ca ? { ca: login.ca } : {};
  if (env.GATEHOUSE_HUB_TOKEN) return { token: env.GATEHOUSE_HUB_TOKEN, ...ca };
  if (!login)
    throw new UsageError(
      `not logged in to ${hubUrl(url)}: run \`gatehouse hub login ${hubUrl(url)}\` or set GATEHOUSE_HUB_TOKEN`,
    );
  return { token: login.token, ...ca };
}

const Me = z.object({ name: z.string(), role: z.string() });

/**
 * `gatehouse hub login URL`: with a personal token, checks it with the hub (who it is); with
 * the code of a sign-in link, spends the code for a new personal token. Either way the token
 * is kept for that hub, 0600.
 */
export async function loginToHub(
  home: string,
  urlText: string,
  secret: { token: string } | { code: string },
  ca?: string,
): Promise<{ url: string; name: string; role: string }> {
  const url = hubUrl(urlText);
  let token: string;
  let me: z.infer<typeof Me>;
  if ('token' in secret) {
    token = secret.token;
    me = Me.parse(await callHub(url, 'GET', '/api/me', { token, ...(ca ? { ca } : {}) }));
  } else {
    const r = Me.extend({ token: z.string() }).parse(
      await callHub(url, 'POST', '/api/login', {
        body: { code: signInCode(secret.code) },
        ...(ca ? { ca } : {}),
      }),
    );
    token = r.token;
    me = { name: r.name, role: r.role };
  }
  const logins = readLogins(home);
  logins.logins[url] = {
    token,
    name: me.name,
    role: me.role,
    at: new Date().toISOString(),
    ...(ca ? { ca } : {}),
  };
  makeDirs(home, 0o700, 'GATEHOUSE_HOME');
  writeFileSync(hubLoginFile(home), `${JSON.stringify(logins, null, 2)}\n`, { mode: 0o600 });
  chmodSync(hubLoginFile(home), 0o600);
  return { url, ...me };
}

/** The code of a sign-in link, given as the code or as the whole link (its last segment or `code=`). */
export function signInCode(text: string): string {
  const trimmed = text.trim();
  if (!/^https?:\/\//.test(trimmed)) return trimmed;
  const link = new URL(trimmed);
  const fromQuery = link.searchParams.get('code') ?? link.searchParams.get('token');
  if (fromQuery) return fromQuery;
  const fromHash = new URLSearchParams(link.hash.slice(1));
  const hashed = fromHash.get('code') ?? fromHash.get('token');
  if (hashed) return hashed;
  const last = link.pathname.split('/').filter(Boolean).pop();
  if (!last) throw new UsageError(`no sign-in code in ${trimmed}`);
  return last;
}
