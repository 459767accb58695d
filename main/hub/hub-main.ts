import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Clock } from '../../shared/clock';
import { generateEd25519 } from '../../shared/node/hub-keys';
import { hubFiles } from '../../shared/node/hub-files';
import { makeDirs } from '../../shared/node/make-dirs';
import { systemClock } from '../../shared/node/system-clock';
import { startExpiryJob } from './expiry-job';
import { auditApiRoutes } from './hub-audit-api';
import { startHubAuditCheckpoints } from './hub-audit-chain';
import { escalationPager } from './hub-escalation-page';
import { adminTokenLine, isAdminToken, settleAdminToken } from './hub-admin-token';
import { HUB_CHANNEL, HubNotice } from './hub-events';
import { hubHttpHandler } from './hub-http';
import { HubPasskeys } from './hub-passkeys';
import { passkeyAdminRoutes } from './hub-passkeys-admin-api';
import { passkeyWebRoutes } from './hub-passkeys-web';
import { HubSessions } from './hub-sessions';
import { hubWebRoutes } from './hub-web';
import { HubWebEvents } from './hub-web-events';
import { hubWebHandlers } from './hub-web-methods';
import { rendererDir } from '../resources';
import { HubRefusal, HubService } from './hub-service';
import { notifyApiRoutes } from './hub-notify-api';
import { OidcClients } from './hub-oidc-client';
import { oidcRoutes } from './hub-oidc-routes';
import type { OidcSettingsInput } from './hub-oidc-settings';
import { applyOidcSettings, checkSignInLinkAllowed, ssoApiRoutes } from './hub-sso-api';
import { teamApiRoutes } from './hub-team-api';
import { HubTeamRules } from './hub-team-rules';
import { startNotifyJob } from './hub-notify-job';
import {
  offeredChannels,
  personNotifyRoutes,
  readOwnNotify,
  setOwnNotify,
} from './hub-person-notify-api';
import { webhookAllowRoutes } from './hub-webhook-allow-api';
import { startPersonNotifyJob } from './hub-person-notify-job';
import { bearerOf, personApiRoutes } from './hub-person-api';
import { MachineLinks, MAX_MACHINE_MESSAGE_BYTES } from './machine-links';
import { PublishedNotices } from './published-notices';
import { teamPolicyApiRoutes } from './team-policy-api';
import { TeamPolicyService } from './team-policy-service';
import { ensureHubIdentity } from './store/identity-repo';
import { maskStoredSecrets } from './stored-secrets-job';
import {
  catchUpStoredSecrets,
  countsText,
  startStoredSecretsCatchUp,
} from './stored-secrets-catch-up';
import { openHubDatabase } from './store/open-database';

export interface HubOptions {
  home: string;
  port: number;
  bind: string;
  /** A PostgreSQL server; the embedded database in `$GATEHOUSE_HOME/hub/data` when absent. */
  databaseUrl?: string;
  clock?: Clock;
  print?: (line: string) => void;
  /** The built renderer the team dashboard serves (dist/renderer by default). */
  staticDir?: string;
  /** A certificate and its key (PEM): the hub serves HTTPS and WSS only. */
  tls?: { cert: string; key: string };
  /** The hub's address as people reach it, for the links in notifications (default: its own). */
  publicUrl?: string;
  /** How often the notify job runs (a round is skipped when another replica holds its lock). */
  notifyEveryMs?: number;
  /** How often the expiry job runs (a round is skipped when another replica holds its lock). */
  expiryEveryMs?: number;
  /** Single sign-on settings to apply at start (`--sso-config FILE`), as `hub sso set` sends them. */
  sso?: OidcSettingsInput;
  /** How often the head of the hub's audit chain is signed (when it moved). */
  auditCheckpointEveryMs?: number;
}

export interface RunningHub {
  url: string;
  replica: string;
  stop(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The hub's composition root (`gatehouse hub`), in order: its folder and admin token; the
 * database (migrated) and the hub's key; the once-only masking of what it stored before; the
 * service; the machines' links and the NOTIFY listener that feeds them; the HTTP + WebSocket
 * server; the expiry job. Stopping reverses it.
 */
export async function startHub(o: HubOptions): Promise<RunningHub> {
  const print = o.print ?? ((line: string) => console.log(line));
  const clock = o.clock ?? systemClock;
  const files = hubFiles(o.home);
  makeDirs(o.home, 0o700, 'GATEHOUSE_HOME');
  makeDirs(files.dir, 0o700, 'the hub folder');
  const db = await openHubDatabase({
    ...(o.databaseUrl ? { url: o.databaseUrl } : {}),
    dataDir: files.data,
  });
  const stops: (() => Promise<void> | void)[] = [() => db.close()];
  const stopAll = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    const identity = await ensureHubIdentity(db, generateEd25519, clock.now());
    // Before the hub serves: once in a hub's life, and then no page, channel or link ever
    // shows a row from before unmasked (the job's progress is printed for a large table).
    await maskStoredSecrets({ db, identity, clock, print });
    // For a day after it, what a replica of an older version still stores during a rolling
    // upgrade is masked too: a round now, then every ten minutes.
    const caughtUp = await catchUpStoredSecrets({ db, identity, clock });
    if (Object.keys(caughtUp.counts).length > 0)
      print(`gatehouse hub: masked what an older replica stored: ${countsText(caughtUp.counts)}`);
    stops.push(startStoredSecretsCatchUp({ db, identity, clock, log: print }));
    const tokenLine = adminTokenLine(
      await settleAdminToken(db, files.adminToken, clock.now()),
      files.adminToken,
    );
    if (tokenLine) print(tokenLine);
    if (o.sso) {
      await applyOidcSettings(db, clock, o.sso);
      print(`gatehouse hub: single sign-on on, with ${o.sso.issuer}`);
    }
    const published = new PublishedNotices({
      db,
      onError: (e) => console.error('gatehouse hub: the published notice failed:', e),
    });
    stops.push(() => published.flush());
    const hub = new HubService({ db, clock, identity, published });
    const teamRules = new HubTeamRules({ db, clock });
    const teamPolicy = new TeamPolicyService({ db, clock, identity });
    // The address people reach the hub at, known once the server listens (single sign-on's
    // redirect URL, the passkeys' origin and desktop notices' links are made from it).
    let publicUrl = o.publicUrl ?? '';
    const links = new MachineLinks({
      db,
      clock,
      identity,
      hub,
      team: teamPolicy,
      publicUrl: () => publicUrl,
    });
    const adminOnly = async (req: IncomingMessage) => {
      const token = bearerOf(req);
      if (!token || !(await isAdminToken(db, token)))
        throw new HubRefusal(401, 'the hub admin token is required');
    };
    const onNotice = (payload: string) => {
      let notice: unknown;
      try {
        notice = JSON.parse(payload);
      } catch {
        return;
      }
      const parsed = HubNotice.safeParse(notice);
      if (!parsed.success) return;
      webEvents.onNotice(parsed.data);
      links
        .onNotice(parsed.data)
        .catch((e: unknown) => console.error('gatehouse hub: notice failed:', e));
    };
    const sessions = new HubSessions({ db, clock, csrfSecret: identity.privateKeyPem });
    const webEvents = new HubWebEvents({ sessions });
    stops.push(() => webEvents.close());
    stops.push(
      await db.listen(HUB_CHANNEL, onNotice, () => {
        links.resendUnanswered().catch(() => undefined);
        webEvents.catchUp();
      }),
    );
    const replica = randomBytes(4).toString('hex');
    const passkeys = new HubPasskeys({ db, clock, publicUrl: () => publicUrl });
    const oidc = oidcRoutes({ db, clock, clients: new OidcClients(), publicUrl: () => publicUrl });
    const dashboard = hubWebRoutes({
      passkeys: passkeyWebRoutes(passkeys),
      secondFactor: (who, role) => passkeys.requireSecondFactor(who, role),
      sessions,
      call: hubWebHandlers({
        hub,
        team: teamRules,
        clock,
        replica,
        csrf: (id) => sessions.csrfToken(id),
        checkSignInLink: (p) => checkSignInLinkAllowed(db, p),
        notify: {
          get: async (who) => ({
            prefs: await readOwnNotify(db, who),
            offered: await offeredChannels(db),
          }),
          set: async (who, body) => ({ prefs: await setOwnNotify({ db, clock }, who, body) }),
        },
      }),
      staticDir: o.staticDir ?? rendererDir(),
      now: () => clock.now(),
      events: webEvents,
    });
    const web: typeof dashboard = async (req, res, path) =>
      (await oidc(req, res, path)) || dashboard(req, res, path);
    const handle = hubHttpHandler({
      hub,
      isAdminToken: (token) => isAdminToken(db, token),
      replica,
      database: db.kind,
      web,
      checkSignInLink: (p) => checkSignInLinkAllowed(db, p),
      more: {
        ...ssoApiRoutes({ db, clock, publicUrl: () => publicUrl, admin: adminOnly }),
        ...personApiRoutes({ db, hub, clock }),
        ...passkeyAdminRoutes({ db, clock, admin: adminOnly }),
        ...personNotifyRoutes({ db, hub, clock }),
        ...webhookAllowRoutes({ db, clock, admin: adminOnly }),
        ...teamApiRoutes({ team: teamRules, admin: adminOnly }),
        ...teamPolicyApiRoutes({ team: teamPolicy, admin: adminOnly }),
        ...notifyApiRoutes({
          db,
          clock,
          publicKey: identity.publicKey,
          admin: adminOnly,
        }),
        ...auditApiRoutes({ db, clock, identity, admin: adminOnly }),
      },
    });
    const server: Server = o.tls
      ? createTlsServer({ cert: o.tls.cert, key: o.tls.key }, (req, res) => void handle(req, res))
      : createServer((req, res) => void handle(req, res));
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MACHINE_MESSAGE_BYTES });
    server.on('upgrade', (req, socket, head) => {
      if (new URL(req.url ?? '/', 'http://hub').pathname !== '/api/machines/link') {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => links.accept(ws));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.bind, () => resolve());
    });
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          links.closeAll();
          wss.close();
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    // Stopped before the database closes (stops run in reverse): the head is signed at stop.
    stops.push(startHubAuditCheckpoints(db, identity, clock, o.auditCheckpointEveryMs));
    stops.push(links.startHeartbeat());
    const { port } = server.address() as AddressInfo;
    const host = o.bind.includes(':') ? `[${o.bind}]` : o.bind;
    const url = `${o.tls ? 'https' : 'http'}://${host}:${port}`;
    publicUrl ||= url;
    const page = escalationPager({ db, clock, identity, publicUrl });
    stops.push(startExpiryJob(db, clock, o.expiryEveryMs, page));
    stops.push(startNotifyJob({ db, clock, identity, publicUrl }, o.notifyEveryMs));
    stops.push(startPersonNotifyJob({ db, clock, identity, publicUrl }, o.notifyEveryMs));
    writeFileSync(
      files.address,
      `${JSON.stringify({ url, ...(o.tls ? { ca: o.tls.cert } : {}) })}\n`,
      { mode: 0o600 },
    );
    if (!LOOPBACK.has(o.bind) && !o.tls)
      print(
        `gatehouse hub: WARNING: listening on ${o.bind} without TLS; give it --tls-cert and --tls-key (or put it behind a TLS proxy) before machines join over a network`,
      );
    print(
      `gatehouse hub: database ${db.kind === 'pglite' ? `embedded in ${files.data}` : 'PostgreSQL server'}`,
    );
    print(`gatehouse hub: replica ${replica} listening on ${url}`);
    print('gatehouse hub: ready');
    return { url, replica, stop: stopAll };
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
}
