import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { authText, HubToMachine, MachineToHub, readyText } from '../../shared/hub-protocol';
import { signText, verifyText, type Ed25519Pair } from '../../shared/node/hub-keys';
import type { Clock } from '../../shared/clock';
import { listCheckpoints, receiveCheckpoints } from './machine-audit';
import { maskedOnArrival } from './masked-arrival';
import { appendAudit } from './store/audit-repo';
import { newestMachineCheckpoint } from './store/audit-checkpoints-repo';
import { getDecision, unansweredDecisions, type DecisionRow } from './store/decisions-repo';
import { claimDesktopNotice, claimDueDesktopNotices } from './store/desktop-notices-repo';
import { getMachine, markOffline, renewOnline, touchMachine } from './store/machines-repo';
import type { SqlDatabase } from './store/sql';
import type { HubService } from './hub-service';
import type { TeamPolicyService } from './team-policy-service';
import type { BundleRow } from './store/team-policy-repo';
import type { HubNotice } from './hub-events';
import { openQuorums } from './quorum';
import { queueMissedDesktopNotices } from './hub-desktop-notices';

/** A link that has not authenticated within this long is closed. */
const AUTH_TIMEOUT_MS = 10_000;
/** The largest message a machine may send (a batch of published requests). */
export const MAX_MACHINE_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Close codes the machine acts on: 4001 refused (stop until the person acts), 4002 replaced. */
export const CLOSE_REFUSED = 4001;
export const CLOSE_REPLACED = 4002;
/** How often a replica renews the online mark of the machines linked to it. */
export const ONLINE_HEARTBEAT_MS = 15_000;
/** A machine whose mark was not renewed for this long counts as offline. */
const ONLINE_WINDOW_MS = 3 * ONLINE_HEARTBEAT_MS;

/**
 * The machines' WebSockets on this replica. A link proves its machine by signing the
 * challenge with the key registered at join; then it publishes (stored, acknowledged) and
 * receives the decisions made for it on any replica: each replica hears of a decision through
 * NOTIFY and sends it if the machine is linked here. Nothing here is needed for correctness
 * elsewhere: a machine that reconnects to another replica gets every unanswered decision again.
 */
export class MachineLinks {
  private readonly linked = new Map<string, WebSocket>();
  /** The links whose machine said it understands `quorum` (an older one would close on it). */
  private readonly hearsQuorum = new WeakSet<WebSocket>();
  /** The links whose machine shows the team's waiting requests on its owner's desktop. */
  private readonly hearsTeamWaiting = new WeakSet<WebSocket>();

  constructor(
    private readonly d: {
      db: SqlDatabase;
      clock: Clock;
      identity: Ed25519Pair;
      hub: HubService;
      team: TeamPolicyService;
      /** The hub's address for the links of desktop notices queued when a machine links. */
      publicUrl?: () => string;
    },
  ) {}

  get count(): number {
    return this.linked.size;
  }

  accept(ws: WebSocket): void {
    const nonce = randomBytes(24).toString('base64url');
    let machineId: string | undefined;
    const timer = setTimeout(() => ws.close(CLOSE_REFUSED, 'no authentication'), AUTH_TIMEOUT_MS);
    // One message at a time, in order: a publish is stored before the next is read.
    let chain = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      chain = chain
        .then(async () => {
          if (isBinary) return ws.close(1003, 'text only');
          let message: MachineToHub;
          try {
            message = maskedOnArrival(MachineToHub.parse(JSON.parse(String(data))));
          } catch {
            return ws.close(1008, 'invalid message');
          }
          if (!machineId) {
            if (message.t !== 'auth') return ws.close(CLOSE_REFUSED, 'authenticate first');
            clearTimeout(timer);
            machineId = await this.authenticate(ws, nonce, message);
            return;
          }
          if (message.t === 'publish') {
            const seq = await this.d.hub.publish(machineId, message.entries);
            send(ws, { t: 'ack', seq });
          } else if (message.t === 'answer') {
            await this.d.hub.answered(machineId, message);
          } else if (message.t === 'checkpoints') {
            const r = await receiveCheckpoints(
              this.d.db,
              machineId,
              message.checkpoints,
              this.d.clock.now(),
            );
            send(ws, { t: 'checkpoints.ack', ...r });
          } else if (message.t === 'checkpoints.get') {
            const page = await listCheckpoints(this.d.db, machineId, message.afterSeq);
            send(ws, { t: 'checkpoints.list', id: message.id, ...page });
          } else if (message.t === 'shadow') {
            await this.d.team.shadowed(machineId, message.records);
            send(ws, { t: 'shadow_ack', upTo: Math.max(...message.records.map((r) => r.id)) });
          } else if (message.t === 'team_policy_answer') {
            await this.d.team.answered(machineId, message);
          }
        })
        .catch((error: unknown) => {
          // A database that went away: the machine reconnects and replays what was not acknowledged.
          console.error('gatehouse hub: a machine link failed:', error);
          ws.close(1011, 'hub error');
        });
    });
    ws.on('close', () => {
      clearTimeout(timer);
      if (machineId && this.linked.get(machineId) === ws) {
        this.linked.delete(machineId);
        markOffline(this.d.db, machineId, this.d.clock.now()).catch(() => undefined);
      }
    });
    ws.on('error', () => undefined);
    send(ws, { t: 'challenge', nonce });
  }

  private async authenticate(
    ws: WebSocket,
    nonce: string,
    auth: Extract<MachineToHub, { t: 'auth' }>,
  ): Promise<string | undefined> {
    const now = this.d.clock.now();
    const machine = await getMachine(this.d.db, auth.machineId);
    const why = !machine
      ? 'unknown machine'
      : machine.revokedAt !== undefined
        ? 'machine revoked'
        : !verifyText(machine.publicKey, authText(nonce, auth.machineId), auth.sig)
          ? 'bad signature'
          : undefined;
    if (why) {
      await appendAudit(this.d.db, now, {
        type: 'machine.refused',
        ...(machine ? { machineId: machine.machineId } : {}),
        data: { reason: why },
      });
      send(ws, { t: 'refused', message: why });
      ws.close(CLOSE_REFUSED, why);
      return undefined;
    }
    const previous = this.linked.get(auth.machineId);
    if (previous && previous !== ws) previous.close(CLOSE_REPLACED, 'replaced by a newer link');
    this.linked.set(auth.machineId, ws);
    if (auth.accepts?.includes('quorum')) this.hearsQuorum.add(ws);
    if (auth.accepts?.includes('team_waiting')) this.hearsTeamWaiting.add(ws);
    await touchMachine(this.d.db, auth.machineId, now, auth.version);
    await renewOnline(this.d.db, [auth.machineId], now, now + ONLINE_WINDOW_MS);
    send(ws, {
      t: 'ready',
      lastSeq: machine!.lastSeq,
      checkpointSeq: await newestMachineCheckpoint(this.d.db, auth.machineId),
      sig: signText(this.d.identity.privateKeyPem, readyText(nonce, auth.machineId)),
    });
    for (const d of await unansweredDecisions(this.d.db, auth.machineId)) sendDecision(ws, d);
    await this.sendQuorums(ws, auth.machineId);
    if (this.hearsTeamWaiting.has(ws)) {
      const publicUrl = this.d.publicUrl?.();
      if (publicUrl)
        await this.d.db.transaction((tx) =>
          queueMissedDesktopNotices(tx, { ...this.d, publicUrl }, machine!),
        );
      await this.sendDueDesktopNotices(ws, auth.machineId);
    }
    // A machine that runs an older team policy (or none) gets the newest at once.
    await this.d.team.reported(auth.machineId, auth.teamPolicyVersion ?? 0);
    const bundle = await this.d.team.newerThan(auth.teamPolicyVersion ?? 0);
    if (bundle) sendBundle(ws, bundle);
    return auth.machineId;
  }

  /** A notice from any replica (this one included). */
  async onNotice(notice: HubNotice): Promise<void> {
    if (notice.kind === 'team_policy') {
      const bundle = await this.d.team.latest();
      if (bundle) for (const ws of this.linked.values()) sendBundle(ws, bundle);
      return;
    }
    // The dashboards' notice: nothing for a machine.
    if (notice.kind === 'published') return;
    const ws = this.linked.get(notice.machineId);
    if (!ws) return;
    if (notice.kind === 'revoked') {
      send(ws, { t: 'refused', message: 'machine revoked' });
      ws.close(CLOSE_REFUSED, 'machine revoked');
      return;
    }
    if (notice.kind === 'quorum') {
      if (!this.hearsQuorum.has(ws)) return;
      send(ws, {
        t: 'quorum',
        requestId: notice.requestId,
        approvals: notice.approvals,
        needed: notice.needed,
      });
      return;
    }
    if (notice.kind === 'team_waiting') {
      if (!this.hearsTeamWaiting.has(ws)) return;
      const { kind: _kind, machineId: to, filedOn, reminder, ...message } = notice;
      // Marked sent first: once per machine and request, live or when it links (sendDue).
      const key = { toMachineId: to, machineId: filedOn ?? '', requestId: message.requestId };
      const kind = reminder ? 'reminder' : 'new';
      if (
        filedOn &&
        !(await claimDesktopNotice(this.d.db, { ...key, kind, now: this.d.clock.now() }))
      )
        return;
      send(ws, { t: 'team_waiting', ...message });
      return;
    }
    if (notice.kind !== 'decision') return;
    const decision = await getDecision(this.d.db, notice.decisionId);
    if (decision && decision.answeredAt === undefined) sendDecision(ws, decision);
  }

  /** After the notices were cut (a database restart): everything linked here catches up. */
  async resendUnanswered(): Promise<void> {
    for (const [machineId, ws] of this.linked) {
      for (const d of await unansweredDecisions(this.d.db, machineId)) sendDecision(ws, d);
      await this.sendQuorums(ws, machineId);
      if (this.hearsTeamWaiting.has(ws)) await this.sendDueDesktopNotices(ws, machineId);
    }
  }

  /**
   * The desktop notices queued for this machine while it was offline (or linked to no replica
   * that could send them), of requests that still wait: one per request, the newest (a
   * reminder over the first notice), each marked sent so no replica sends it again.
   */
  private async sendDueDesktopNotices(ws: WebSocket, machineId: string): Promise<void> {
    const due = await claimDueDesktopNotices(this.d.db, machineId, this.d.clock.now());
    const newest = new Map<string, (typeof due)[number]>();
    for (const n of due) {
      const key = `${n.machineId}\u0000${n.requestId}`;
      const seen = newest.get(key);
      if (
        !seen ||
        n.queuedAt > seen.queuedAt ||
        (n.queuedAt === seen.queuedAt && n.kind === 'reminder')
      )
        newest.set(key, n);
    }
    for (const n of newest.values()) {
      // Read back from the database: checked against the message's schema before it goes.
      const message = HubToMachine.safeParse({ ...(n.notice as object), t: 'team_waiting' });
      if (message.success) send(ws, message.data);
    }
  }

  /** Where the machine's open team quorums stand: a link made after a vote hears the count. */
  private async sendQuorums(ws: WebSocket, machineId: string): Promise<void> {
    if (!this.hearsQuorum.has(ws)) return;
    for (const q of await openQuorums(this.d.db, machineId)) send(ws, { t: 'quorum', ...q });
  }

  /** Renews the online mark of every machine linked here, every heartbeat; returns the stop. */
  startHeartbeat(everyMs = ONLINE_HEARTBEAT_MS): () => void {
    const timer = setInterval(() => {
      const now = this.d.clock.now();
      renewOnline(this.d.db, [...this.linked.keys()], now, now + ONLINE_WINDOW_MS).catch(
        () => undefined,
      );
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  closeAll(): void {
    for (const ws of this.linked.values()) ws.close(1001, 'hub stopping');
    this.linked.clear();
  }
}

function send(ws: WebSocket, message: HubToMachine): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function sendBundle(ws: WebSocket, b: BundleRow): void {
  send(ws, { t: 'team_policy', payload: b.payload, sig: b.signature });
}

function sendDecision(ws: WebSocket, d: DecisionRow): void {
  send(ws, { t: 'decision', payload: d.payload, sig: d.signature });
}
