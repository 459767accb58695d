import { rootCertificates } from 'node:tls';
import { WebSocket } from 'ws';
import {
  authText,
  CHECKPOINT_BATCH,
  HubToMachine,
  readyText,
  type MachineCheckpoint,
  type MachineToHub,
} from '../../shared/hub-protocol';
import { signText, verifyText } from '../../shared/node/hub-keys';
import type { HubOutboxRepository } from '../store/hub-outbox-repository';
import type { HubDecisionApplier } from './decision-applier';
import type { TeamPolicyBook } from './team-policy-book';

/** Entries per publish message. */
const BATCH = 200;
/** Shadow records per message (the protocol's limit). */
const SHADOW_BATCH = 200;
/** JSON per publish message, far below the hub's limit (MAX_MACHINE_MESSAGE_BYTES, 8 MiB). */
const BATCH_BYTES = 1024 * 1024;
const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 30_000;
/** The hub's close code for a refused machine (revoked, unknown key): no quick retry. */
const CLOSE_REFUSED = 4001;
/** How long `audit verify --hub` waits for each page of the hub's checkpoints. */
const FETCH_TIMEOUT_MS = 15_000;

/** The hub's copies of this machine's audit checkpoints, and the audit key it pinned. */
export interface HubCheckpoints {
  checkpoints: MachineCheckpoint[];
  pinnedKey?: string;
}

/** What the hub says of a request waiting on another machine of the team. */
export type TeamWaiting = Extract<HubToMachine, { t: 'team_waiting' }>;

export interface LinkState {
  connected: boolean;
  since: string;
  error?: string;
}

/**
 * The machine's one outbound WebSocket to its hub. It authenticates by signing the hub's
 * challenge, checks the hub's answer against the pinned key, then publishes the outbox in
 * order (one batch in flight; the hub's acknowledgement drops it) and passes each decision
 * to the applier, answering with its outcome. Lost: reconnects with exponential back-off and
 * jitter, to whichever replica the URL reaches; the outbox replays from what the hub says it has.
 */
export class HubConnection {
  private ws: WebSocket | undefined;
  private stopped = false;
  private ready = false;
  private inFlight = 0;
  /** Shadow records sent and not yet acknowledged (one batch at a time). */
  private shadowInFlight = false;
  private backoff = MIN_BACKOFF_MS;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly d: {
      url: string;
      machineId: string;
      privateKeyPem: string;
      hubPublicKey: string;
      /** A CA (PEM) trusted for the hub's TLS certificate besides the system's. */
      ca?: string;
      version: string;
      outbox: HubOutboxRepository;
      applier: HubDecisionApplier;
      /** The team policy: bundles from the hub go in, shadow records go up. */
      team: TeamPolicyBook;
      onState: (state: LinkState) => void;
      /** The machine's signed audit checkpoints after a number, oldest first. */
      checkpointsAfter: (seq: number, limit: number) => MachineCheckpoint[];
      /** The hub refused checkpoints (another key, a bad signature): said once per refusal. */
      onCheckpointsRefused: (reason: string) => void;
      /** A team rule on the hub waits for more approvals of one of this machine's requests. */
      onQuorum?: (q: { requestId: string; approvals: number; needed: number }) => void;
      /** A request waiting on another machine, for this machine owner's desktop. */
      onTeamWaiting?: (w: TeamWaiting) => void;
    },
  ) {}

  /** The newest checkpoint the hub holds; undefined until ready (or with a hub too old for them). */
  private hubCheckpointSeq: number | undefined;
  private checkpointsInFlight = false;
  private readonly pendingLists = new Map<
    string,
    {
      resolve: (page: Extract<HubToMachine, { t: 'checkpoints.list' }>) => void;
      reject: (error: Error) => void;
    }
  >();
  private nextListId = 0;

  /** New checkpoints on this machine: sent now when the link is up and idle. */
  kickCheckpoints(): void {
    if (this.ready && !this.checkpointsInFlight) this.sendCheckpoints();
  }

  /** Every checkpoint the hub holds for this machine, read over the link; throws when it is down. */
  async hubCheckpoints(): Promise<HubCheckpoints> {
    const all: MachineCheckpoint[] = [];
    let pinnedKey: string | undefined;
    let afterSeq = 0;
    for (;;) {
      const page = await this.requestCheckpoints(afterSeq);
      all.push(...page.checkpoints);
      pinnedKey ??= page.pinnedKey;
      const last = page.checkpoints.at(-1);
      if (!page.more || !last) break;
      afterSeq = last.seq;
    }
    return { checkpoints: all, ...(pinnedKey ? { pinnedKey } : {}) };
  }

  private requestCheckpoints(
    afterSeq: number,
  ): Promise<Extract<HubToMachine, { t: 'checkpoints.list' }>> {
    if (!this.ready || this.hubCheckpointSeq === undefined)
      return Promise.reject(
        new Error(
          this.ready
            ? 'the hub keeps no audit checkpoints (it runs an older version)'
            : 'the hub is not reachable: the link is down',
        ),
      );
    const id = String(++this.nextListId);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingLists.delete(id);
        reject(new Error('the hub did not answer in time'));
      }, FETCH_TIMEOUT_MS);
      this.pendingLists.set(id, {
        resolve: (page) => {
          clearTimeout(timer);
          resolve(page);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.send({ t: 'checkpoints.get', id, afterSeq });
    });
  }

  private sendCheckpoints(): void {
    if (!this.ready || this.checkpointsInFlight || this.hubCheckpointSeq === undefined) return;
    const checkpoints = this.d.checkpointsAfter(this.hubCheckpointSeq, CHECKPOINT_BATCH);
    if (checkpoints.length === 0) return;
    this.checkpointsInFlight = true;
    this.send({ t: 'checkpoints', checkpoints });
  }

  start(): void {
    this.connect();
  }

  /** New entries in the outbox: sent now when the link is up and idle. */
  kick(): void {
    if (this.ready && this.inFlight === 0) this.sendNext();
  }

  /** New shadow records: sent now when the link is up and none are in flight. */
  kickShadow(): void {
    if (this.ready && !this.shadowInFlight) this.sendShadow();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close(1000, 'leaving');
  }

  private connect(): void {
    if (this.stopped) return;
    const url = new URL('/api/machines/link', this.d.url);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url, {
      handshakeTimeout: 10_000,
      maxPayload: 1024 * 1024,
      // TLS is verified as always; a hub with a private CA adds it (hub join --ca).
      ...(this.d.ca ? { ca: [...rootCertificates, this.d.ca] } : {}),
    });
    this.ws = ws;
    let nonce: string | undefined;
    let refused: string | undefined;
    let chain = Promise.resolve();
    ws.on('message', (data) => {
      chain = chain
        .then(async () => {
          const message = HubToMachine.parse(JSON.parse(String(data)));
          switch (message.t) {
            case 'challenge':
              nonce = message.nonce;
              this.send({
                t: 'auth',
                machineId: this.d.machineId,
                sig: signText(this.d.privateKeyPem, authText(nonce, this.d.machineId)),
                version: this.d.version,
                accepts: this.d.onTeamWaiting ? ['quorum', 'team_waiting'] : ['quorum'],
                teamPolicyVersion: this.d.team.version(),
              });
              return;
            case 'ready':
              if (
                !nonce ||
                !verifyText(this.d.hubPublicKey, readyText(nonce, this.d.machineId), message.sig)
              ) {
                // Not the hub this machine joined: nothing is published to it.
                refused = 'the hub did not prove its pinned key';
                ws.close(1008, refused);
                return;
              }
              this.ready = true;
              this.backoff = MIN_BACKOFF_MS;
              this.d.outbox.acknowledged(message.lastSeq);
              this.hubCheckpointSeq = message.checkpointSeq;
              this.d.onState({ connected: true, since: new Date().toISOString() });
              this.sendNext();
              // Those made while the link was down go up now, after what the hub holds.
              this.sendCheckpoints();
              this.sendShadow();
              return;
            case 'checkpoints.ack':
              this.checkpointsInFlight = false;
              this.hubCheckpointSeq = Math.max(this.hubCheckpointSeq ?? 0, message.seq);
              if (message.refused) this.d.onCheckpointsRefused(message.refused);
              this.sendCheckpoints();
              return;
            case 'checkpoints.list':
              this.pendingLists.get(message.id)?.resolve(message);
              this.pendingLists.delete(message.id);
              return;
            case 'ack':
              this.d.outbox.acknowledged(message.seq);
              this.inFlight = 0;
              this.sendNext();
              return;
            case 'decision': {
              if (!this.ready) return;
              const answer = await this.d.applier.apply(message.payload, message.sig);
              if (answer) this.send({ t: 'answer', ...answer });
              return;
            }
            case 'refused':
              refused = message.message;
              return;
            case 'quorum':
              if (this.ready) this.d.onQuorum?.(message);
              return;
            case 'team_waiting':
              // Only from the hub `ready` proved: nothing else on the wire may raise a notice.
              if (this.ready) this.d.onTeamWaiting?.(message);
              return;
            case 'team_policy': {
              // Only after `ready` proved the pinned hub; the bundle is checked on its own too.
              if (!this.ready) return;
              const r = this.d.team.receive(message.payload, message.sig, this.d.hubPublicKey);
              this.send({
                t: 'team_policy_answer',
                version: r.outcome === 'refused' ? 0 : r.version,
                outcome: r.outcome,
                ...(r.outcome === 'refused' ? { detail: r.detail } : {}),
              });
              return;
            }
            case 'shadow_ack':
              this.d.team.shadowDelivered(message.upTo);
              this.shadowInFlight = false;
              this.sendShadow();
              return;
          }
        })
        .catch((error: unknown) => {
          refused = `bad message from the hub: ${error instanceof Error ? error.message : String(error)}`;
          ws.close(1008, 'bad message');
        });
    });
    ws.on('error', (error) => {
      refused ??= error.message;
    });
    ws.on('close', (code) => {
      this.ready = false;
      this.inFlight = 0;
      this.checkpointsInFlight = false;
      this.hubCheckpointSeq = undefined;
      for (const pending of this.pendingLists.values())
        pending.reject(new Error('the hub is not reachable: the link closed'));
      this.pendingLists.clear();
      this.shadowInFlight = false;
      if (this.ws === ws) this.ws = undefined;
      if (this.stopped) return;
      this.d.onState({
        connected: false,
        since: new Date().toISOString(),
        ...(refused
          ? { error: refused }
          : code === CLOSE_REFUSED
            ? { error: 'refused by the hub' }
            : {}),
      });
      // A refused machine retries slowly: an admin may re-invite it, nothing else changes.
      const wait = code === CLOSE_REFUSED ? MAX_BACKOFF_MS : this.backoff;
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
      this.timer = setTimeout(() => this.connect(), wait / 2 + Math.random() * (wait / 2));
    });
  }

  private sendNext(): void {
    if (!this.ready || this.inFlight > 0) return;
    const entries = this.d.outbox.next(0, BATCH);
    if (entries.length === 0) return;
    // Within the hub's message limit whatever the requests hold (a context is up to 64 KiB):
    // at most BATCH_BYTES of JSON, and always at least one entry.
    let bytes = 0;
    const batch = entries.filter((e) => {
      bytes += JSON.stringify(e).length;
      return bytes <= BATCH_BYTES;
    });
    if (batch.length === 0) batch.push(entries[0]!);
    this.inFlight = batch.length;
    this.send({ t: 'publish', entries: batch });
  }

  private sendShadow(): void {
    if (!this.ready || this.shadowInFlight) return;
    const records = this.d.team.unsentShadow(SHADOW_BATCH);
    if (records.length === 0) return;
    this.shadowInFlight = true;
    this.send({ t: 'shadow', records });
  }

  private send(message: MachineToHub): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }
}
