import { existsSync, readFileSync } from 'node:fs';
import { replaceFileSync } from '../../shared/node/replace-file';
import { z } from 'zod';
import { isWaitingForYou, urgencyAtLeast, type RequestRecord } from '../../shared/domain';
import type { GatehouseEvent } from '../../shared/events';
import { JoinResult, type HubEventKind } from '../../shared/hub-protocol';
import { hubLinkFiles } from '../../shared/node/hub-files';
import { publishedToHub } from '../../shared/settings/hub';
import { VERSION } from '../../shared/version';
import type { Core } from '../core';
import { AuditChainRepository } from '../store/audit-chain-repository';
import { HubOutboxRepository } from '../store/hub-outbox-repository';
import { HubDecisionApplier, type HubDecisionPort } from './decision-applier';
import type { DesktopNotifier } from '../notify/desktop-port';
import { HubConnection, type LinkState, type TeamWaiting } from './hub-connection';
import { teamWaitingNotice } from './team-waiting-notice';
import { forHub } from './hub-picture';
import { ruleOffersOf } from './rule-offers';

const LinkRecord = JoinResult.extend({
  url: z.string(),
  joinedAt: z.string(),
  /** A CA (PEM) the hub's TLS certificate is checked against, from `hub join --ca`. */
  ca: z.string().optional(),
});
type LinkRecord = z.infer<typeof LinkRecord>;

/** How often the daemon looks for a join or a leave (`gatehouse hub join|leave`). */
const WATCH_MS = 1_000;

/** The kind of outbox entry an event is, for a request the hub shows. */
function kindOf(event: GatehouseEvent): HubEventKind | undefined {
  switch (event.type) {
    case 'request.created':
      return 'request.asked';
    case 'request.decided':
      return 'request.decided';
    case 'request.timed_out':
      return 'request.timed_out';
    case 'request.cancelled':
      return 'request.cancelled';
    default:
      return undefined;
  }
}

const outcomeKind = (status: RequestRecord['status']): HubEventKind =>
  status === 'timed_out'
    ? 'request.timed_out'
    : status === 'cancelled' || status === 'abandoned'
      ? 'request.cancelled'
      : 'request.decided';

function readLink(home: string): { link: LinkRecord; key: string } | undefined {
  const files = hubLinkFiles(home);
  if (!existsSync(files.link) || !existsSync(files.key)) return undefined;
  try {
    return {
      link: LinkRecord.parse(JSON.parse(readFileSync(files.link, 'utf8'))),
      key: readFileSync(files.key, 'utf8'),
    };
  } catch {
    return undefined;
  }
}

/**
 * The daemon's side of the hub, started once by the composition root. While this
 * machine is joined (link.json and its key in the data folder), every request that asks a
 * person, and each outcome of one, goes into the durable outbox right after the engine
 * committed it, and the link publishes the outbox; at each start of the link, what a crash
 * kept out of the outbox is put in. Decisions from the hub come through the admin service's
 * `decide`, as a local one does. The local gate never waits on the hub.
 */
export function startHubLink(
  core: Pick<Core, 'home' | 'db' | 'admin' | 'engine' | 'attached' | 'settings' | 'teamPolicy'> &
    Partial<Pick<Core, 'waitNotes'>>,
  o: {
    /** The root's desktop notifier: the team's waiting requests for this machine's owner. */
    desktop?: DesktopNotifier;
  } = {},
): {
  stop(): void;
} {
  const files = hubLinkFiles(core.home);
  const outbox = new HubOutboxRepository(core.db);
  const auditChain = new AuditChainRepository(core.db);
  let current: { link: LinkRecord; connection: HubConnection; joinedAt: number } | undefined;
  let state: LinkState | undefined;

  const teamInfo = () => core.teamPolicy.info();
  const writeState = () => {
    if (!current || !state) return;
    const teamPolicy = teamInfo();
    try {
      // Renamed into place: `gatehouse hub status` reads it while the daemon writes.
      replaceFileSync(
        files.state,
        `${JSON.stringify({ ...state, outbox: outbox.size(), ...(teamPolicy ? { teamPolicy } : {}) })}\n`,
      );
    } catch {
      // The folder went with a leave: nothing to report to.
    }
  };

  const port: HubDecisionPort = {
    now: () => Date.now(),
    getRequest(requestId) {
      try {
        return core.engine.admin.call('request.get', { requestId }).request;
      } catch {
        return undefined;
      }
    },
    async decide(p) {
      // The scope the person chose on the hub; session and always get this machine's own
      // preview of what they cover (no rule travels), as a local decision without one does.
      await core.admin.invoke('decide', p);
    },
    async audit(type, fields) {
      core.engine.recordAudit(type, fields);
      await core.engine.durable();
    },
    ruleOffers(requestId) {
      try {
        return ruleOffersOf(core.engine.admin.call('rules.preview', { requestId }));
      } catch {
        return undefined;
      }
    },
  };

  const publish = (kind: HubEventKind, request: RequestRecord): void => {
    if (!current) return;
    if (kind === 'request.asked') {
      // Only what waits for a person: auto-approved and grant-covered calls stay local, and
      // so do the projects and agents the settings keep off the hub. Its outcomes follow it
      // only if it was published (below), so a later change of the settings never sends
      // half a request.
      if (request.tier !== 'ask' || !isWaitingForYou(request.status)) return;
      if (!publishedToHub(core.settings.get().hub, request)) return;
    } else if (!outbox.published(request.requestId)) return;
    outbox.enqueue(
      kind,
      forHub(request),
      Date.now(),
      kind === 'request.asked' ? port.ruleOffers(request.requestId) : undefined,
    );
    current.connection.kick();
  };

  /** A published request's picture, stored after it asked: the hub shows it too. */
  const publishPicture = (requestId: string): void => {
    if (!current || !outbox.published(requestId)) return;
    const request = port.getRequest(requestId);
    if (!request?.picture) return;
    outbox.enqueue('request.pictured', forHub(request), Date.now());
    current.connection.kick();
  };

  /** Puts in what a crash between the engine's commit and the outbox write left out. */
  const catchUp = (since: number): void => {
    for (const owed of outbox.owed(since)) {
      const request = port.getRequest(owed.requestId);
      if (!request) continue;
      if (!owed.published) {
        // Kept local by the settings: never published, so neither are its outcomes.
        if (!publishedToHub(core.settings.get().hub, request)) continue;
        outbox.enqueue(
          'request.asked',
          forHub({ ...request, status: 'pending' }),
          Date.now(),
          port.ruleOffers(request.requestId),
        );
      }
      if (!isWaitingForYou(request.status))
        outbox.enqueue(outcomeKind(request.status), forHub(request), Date.now());
    }
  };

  const unsubscribe = core.admin.subscribe((event) => {
    const kind = kindOf(event);
    if ((kind === 'request.decided' || kind === 'request.cancelled') && 'request' in event)
      core.waitNotes?.delete(event.request.requestId);
    try {
      if (event.type === 'request.picture') publishPicture(event.requestId);
      if (!kind || !('request' in event)) return;
      publish(kind, event.request);
    } catch (error) {
      // Caught up at the next start (catchUp): never a reason to fail the engine's event.
      console.error('gatehouse: could not queue a request for the hub:', error);
    }
  });

  /** Shown through the desktop channel, unless this machine's settings turned it off. */
  const onTeamWaiting = (w: TeamWaiting): void => {
    const desktop = core.settings.get().notifications.channels.desktop;
    if (!o.desktop || !desktop.enabled || !urgencyAtLeast(w.urgency, desktop.minUrgency)) return;
    o.desktop
      .show(teamWaitingNotice(w))
      .catch((error: unknown) =>
        console.error('gatehouse: could not show a team request on the desktop:', error),
      );
  };

  const check = () => {
    const found = readLink(core.home);
    if (current && (!found || found.link.machineId !== current.link.machineId)) {
      core.teamPolicy.whenShadowed(undefined);
      current.connection.stop();
      current = undefined;
      outbox.clear();
    }
    if (!current && found) {
      const joinedAt = Date.parse(found.link.joinedAt);
      const applier = new HubDecisionApplier({
        port,
        outbox,
        hubPublicKey: found.link.hubPublicKey,
        machineId: found.link.machineId,
      });
      const connection = new HubConnection({
        url: found.link.url,
        machineId: found.link.machineId,
        privateKeyPem: found.key,
        hubPublicKey: found.link.hubPublicKey,
        ...(found.link.ca ? { ca: found.link.ca } : {}),
        version: VERSION,
        outbox,
        applier,
        team: core.teamPolicy,
        onState: (s) => {
          state = s;
          writeState();
        },
        checkpointsAfter: (seq, limit) => auditChain.checkpointsAfter(seq, limit),
        onCheckpointsRefused: (reason) => {
          port
            .audit('hub.checkpoints_refused', { data: { reason } })
            .catch((error: unknown) =>
              console.error('gatehouse: could not audit a refusal of the hub:', error),
            );
        },
        // The agent whose wait ends before the team's quorum is told how far it got.
        ...(o.desktop ? { onTeamWaiting } : {}),
        onQuorum: (q) =>
          core.waitNotes?.set(
            q.requestId,
            `waiting for the team's approval on the hub: ${q.approvals} of ${q.needed} approvals`,
          ),
      });
      current = { link: found.link, connection, joinedAt };
      core.teamPolicy.whenShadowed(() => connection.kickShadow());
      catchUp(Number.isFinite(joinedAt) ? joinedAt : 0);
      connection.start();
    }
  };
  check();
  // `status` (the CLI, the dashboard, the tray) reads the link from here while joined.
  const detach = core.attached.attachHubLink(() =>
    current
      ? {
          url: current.link.url,
          machineName: current.link.machineName,
          connected: state?.connected ?? false,
          ...(state?.since ? { since: state.since } : {}),
          ...(state?.error ? { error: state.error } : {}),
          outbox: outbox.size(),
          shownOnHub: outbox.waitingShownOnHub(),
          ...(teamInfo() ? { teamPolicy: teamInfo() } : {}),
        }
      : undefined,
  );
  const detachAudit = core.attached.attachHubAudit(() => {
    const linked = current;
    return linked
      ? { url: linked.link.url, checkpoints: () => linked.connection.hubCheckpoints() }
      : undefined;
  });
  const timer = setInterval(() => {
    check();
    writeState();
    // Checkpoints the sealer signed since: sent when the link is idle.
    current?.connection.kickCheckpoints();
  }, WATCH_MS);
  timer.unref();
  return {
    stop() {
      detach();
      detachAudit();
      clearInterval(timer);
      unsubscribe();
      current?.connection.stop();
      current = undefined;
    },
  };
}
