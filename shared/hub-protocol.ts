import { z } from 'zod';
import { DecisionScope, RequestRecord, Urgency } from './domain';
import { DecideParams } from './protocol/admin-methods';
import { HubApproval } from './provenance';
import { ShadowRecord } from './policy/team-policy';
import { RuleOfferId, RuleOffers } from './hub-rule-offers';

/**
 * The wire between a machine's daemon and the team hub: the join call (HTTP) and
 * the messages of the one outbound WebSocket a joined machine keeps. Both sides validate
 * every message against these schemas.
 */

/** A machine's name on the hub: what `gatehouse hub invite --machine NAME` gave. */
export const MachineName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'letters, digits, ".", "_" or "-", at most 63');
/** A person's name on the hub, recorded with each decision as `hub:<name>`. */
export const PersonName = MachineName;
/** A group of people on the hub (made there, or named by the identity provider's claim). */
export const GroupName = MachineName;
export const PersonRole = z.enum(['admin', 'approver', 'viewer']);
export type PersonRole = z.infer<typeof PersonRole>;

/** An Ed25519 public key, DER (SPKI) in base64. */
const PublicKey = z.string().min(40).max(200);
const Signature = z.string().min(40).max(200);
/** The largest team policy bundle (its JSON text), well inside the machine's message limit. */
export const MAX_TEAM_POLICY_BYTES = 512 * 1024;

export const JoinParams = z.object({
  code: z.string().min(16).max(128),
  publicKey: PublicKey,
  version: z.string().max(64).optional(),
});
export const JoinResult = z.object({
  machineId: z.string(),
  machineName: MachineName,
  /** Pinned by the machine: every decision and every `ready` is checked against it. */
  hubPublicKey: PublicKey,
});
export type JoinResult = z.infer<typeof JoinResult>;

/** What a machine publishes: a request that asks, then its outcome, in the order they happened. */
export const HubEventKind = z.enum([
  'request.asked',
  'request.decided',
  'request.timed_out',
  'request.cancelled',
  /** Its picture (diff, push, files, message), computed after it asked: the hub adds it. */
  'request.pictured',
]);
export type HubEventKind = z.infer<typeof HubEventKind>;
export const OutboxEntry = z.object({
  seq: z.number().int().positive(),
  kind: HubEventKind,
  request: RequestRecord,
  /**
   * With `request.asked`: the rules this machine offers for a session, envelope or "always"
   * approval on the hub (its own preview, shared/hub-rule-offers.ts). Absent from an older
   * machine, or when the preview is too large to travel.
   */
  offers: RuleOffers.optional(),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

/** A hub decision as signed: the exact JSON text travels, so both sides check the same bytes. */
/**
 * What an approval may carry besides its scope, exactly as a local `decide` takes it (an
 * envelope, a message and conditions for the agent, an edited call): the machine checks each
 * through its own decide path. The rule a session, envelope or "always" approval remembers is
 * named by `ruleOffer`, the id of one the machine offered (never a rule's text): the machine
 * applies only a rule it computed itself.
 */
export const HubDecisionTerms = DecideParams.pick({
  envelope: true,
  message: true,
  conditions: true,
  edit: true,
}).extend({ ruleOffer: RuleOfferId.optional() });
export type HubDecisionTerms = z.infer<typeof HubDecisionTerms>;

export const HubDecision = z.object({
  /** 2 when it carries terms: a machine that knows only 1 refuses it rather than drop them. */
  v: z.union([z.literal(1), z.literal(2)]),
  decisionId: z.string().min(8).max(64),
  machineId: z.string().min(1).max(64),
  requestId: z.string().min(1).max(128),
  decision: z.enum(['approve', 'deny']),
  /**
   * Session or always: the machine applies the rule of its own preview that `terms.ruleOffer`
   * names, or else its narrowest.
   */
  scope: DecisionScope.optional(),
  reason: z.string().max(2000).optional(),
  /** Left out when empty, so a plain decision's signed text stays what older machines check. */
  terms: HubDecisionTerms.optional(),
  person: PersonName,
  /** Under a team rule that asks for a quorum: each approval that made it (absent otherwise). */
  approvals: z.array(HubApproval).max(10).optional(),
  /** The team rule that governed the decision. */
  rule: z.string().max(64).optional(),
  issuedAt: z.number().int(),
  expiresAt: z.number().int(),
});
export type HubDecision = z.infer<typeof HubDecision>;

/**
 * A signed checkpoint of a machine's audit chain, as the machine's daemon made it: the hub
 * keeps a copy, so a chain later rewritten on the machine no longer matches it.
 */
export const MachineCheckpoint = z.object({
  seq: z.number().int().positive(),
  /** The chain hash at `seq`, hex (SHA-256). */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  at: z.number().int().nonnegative(),
  throughAt: z.number().int().nonnegative(),
  entries: z.number().int().nonnegative(),
  /** The machine's audit key (not its link key); the hub pins the first one it sees. */
  publicKey: PublicKey,
  signature: Signature,
});
export type MachineCheckpoint = z.infer<typeof MachineCheckpoint>;
/** Checkpoints per message, either way. */
export const CHECKPOINT_BATCH = 500;

/** The longest title a `team_waiting` message carries (the hub cuts longer ones). */
export const TEAM_WAITING_TITLE_MAX = 300;

export const HubToMachine = z.discriminatedUnion('t', [
  z.object({ t: z.literal('challenge'), nonce: z.string().min(16).max(128) }),
  /** Authenticated; `sig` proves the pinned hub answered; `lastSeq` is what it already has. */
  z.object({
    t: z.literal('ready'),
    lastSeq: z.number().int().nonnegative(),
    sig: Signature,
    /** The newest audit checkpoint of this machine the hub holds (absent: an older hub). */
    checkpointSeq: z.number().int().nonnegative().optional(),
  }),
  /** Checkpoints through `seq` were handled: stored, or refused with `refused` saying why. */
  z.object({
    t: z.literal('checkpoints.ack'),
    seq: z.number().int().nonnegative(),
    refused: z.string().max(1024).optional(),
  }),
  /** The answer to `checkpoints.get`: the hub's copies after `afterSeq`, oldest first. */
  z.object({
    t: z.literal('checkpoints.list'),
    id: z.string().min(1).max(64),
    checkpoints: z.array(MachineCheckpoint).max(CHECKPOINT_BATCH),
    /** The audit key the hub pinned for this machine. */
    pinnedKey: PublicKey.optional(),
    more: z.boolean(),
  }),
  z.object({ t: z.literal('ack'), seq: z.number().int().nonnegative() }),
  z.object({ t: z.literal('decision'), payload: z.string().max(8192), sig: Signature }),
  z.object({ t: z.literal('refused'), message: z.string().max(1024) }),
  /** A team rule waits for a quorum: how many of the approvals it needs the request has. */
  z.object({
    t: z.literal('quorum'),
    requestId: z.string().min(1).max(128),
    approvals: z.number().int().nonnegative(),
    needed: z.number().int().positive(),
  }),
  /**
   * A request waiting on another machine of the team, for the desktop of this machine's owner
   * (who chose desktop notifications): what it is and the hub's signed page to decide it on.
   */
  z.object({
    t: z.literal('team_waiting'),
    requestId: z.string().min(1).max(128),
    machine: z.string().min(1).max(128),
    title: z.string().max(TEAM_WAITING_TITLE_MAX),
    urgency: Urgency,
    link: z
      .string()
      .max(4096)
      .refine((s) => /^https?:\/\/\S+$/i.test(s), 'expected an http(s) URL'),
  }),
  /** The newest team policy bundle, signed (shared/policy/team-policy.ts): on publish and on connect. */
  z.object({
    t: z.literal('team_policy'),
    payload: z.string().max(MAX_TEAM_POLICY_BYTES),
    sig: Signature,
  }),
  /** The hub stored the machine's shadow records up to this id. */
  z.object({ t: z.literal('shadow_ack'), upTo: z.number().int().nonnegative() }),
]);
export type HubToMachine = z.infer<typeof HubToMachine>;

export const MachineToHub = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('auth'),
    machineId: z.string().min(1).max(64),
    sig: Signature,
    version: z.string().max(64).optional(),
    /**
     * The optional messages this machine understands (`quorum`, `team_waiting`): the hub sends no other, so a
     * machine from before them keeps its link.
     */
    accepts: z.array(z.string().max(32)).max(16).optional(),
    /** The team policy version the machine runs (0: none): an older one gets the newest. */
    teamPolicyVersion: z.number().int().nonnegative().optional(),
  }),
  z.object({ t: z.literal('publish'), entries: z.array(OutboxEntry).min(1).max(500) }),
  /** Audit checkpoints the hub does not have yet, oldest first. */
  z.object({
    t: z.literal('checkpoints'),
    checkpoints: z.array(MachineCheckpoint).min(1).max(CHECKPOINT_BATCH),
  }),
  /** Asks for the hub's copies of this machine's checkpoints (`audit verify --hub`). */
  z.object({
    t: z.literal('checkpoints.get'),
    id: z.string().min(1).max(64),
    afterSeq: z.number().int().nonnegative(),
  }),
  /** What became of a hub decision on the machine: applied, or refused and why. */
  z.object({
    t: z.literal('answer'),
    decisionId: z.string().min(8).max(64),
    outcome: z.enum(['applied', 'refused']),
    detail: z.string().max(2000).optional(),
  }),
  /** Calls a shadow team rule would have decided otherwise (`hub policy shadow-report`). */
  z.object({ t: z.literal('shadow'), records: z.array(ShadowRecord).min(1).max(200) }),
  /** What became of a team policy bundle: accepted, or refused and why. */
  z.object({
    t: z.literal('team_policy_answer'),
    version: z.number().int().nonnegative(),
    outcome: z.enum(['accepted', 'unchanged', 'refused']),
    detail: z.string().max(2000).optional(),
  }),
]);
export type MachineToHub = z.infer<typeof MachineToHub>;

/** The texts each side signs, bound to their purpose so one signature never serves another. */
export const authText = (nonce: string, machineId: string): string =>
  `gatehouse-hub-auth-v1\n${nonce}\n${machineId}`;
export const readyText = (nonce: string, machineId: string): string =>
  `gatehouse-hub-ready-v1\n${nonce}\n${machineId}`;
export const decisionText = (payload: string): string => `gatehouse-hub-decision-v1\n${payload}`;

/** The decision channel a hub decision is recorded under on the machine. */
export const hubDecisionChannel = (person: string) => `hub:${person}` as const;
