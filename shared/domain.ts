import { z } from 'zod';
import { RequestPicture } from './request-picture/picture-schema';

/** How an action is handled: done at once, or brought to a human. */
export const Tier = z.enum(['auto', 'ask']);
export type Tier = z.infer<typeof Tier>;

export const Urgency = z.enum(['low', 'normal', 'high']);
export type Urgency = z.infer<typeof Urgency>;
/** Urgencies in rising order, for "at least" comparisons. */
export const URGENCY_ORDER: readonly Urgency[] = ['low', 'normal', 'high'];
export const urgencyAtLeast = (u: Urgency, min: Urgency): boolean =>
  URGENCY_ORDER.indexOf(u) >= URGENCY_ORDER.indexOf(min);

export const Risk = z.enum(['low', 'medium', 'high', 'critical']);
export type Risk = z.infer<typeof Risk>;
export const RISK_ORDER: readonly Risk[] = ['low', 'medium', 'high', 'critical'];

/**
 * Stored status of a permission request. `timed_out` stays in the review queue. `abandoned`:
 * closed by Gatehouse because its agent's session ended and never came back within
 * `retention.abandonAfterMs` (an agent that asks about it is answered `cancelled`).
 */
export const RequestStatus = z.enum([
  'pending',
  'approved',
  'denied',
  'timed_out',
  'cancelled',
  'abandoned',
]);
export type RequestStatus = z.infer<typeof RequestStatus>;

export const DecidedBy = z.enum(['policy', 'rule', 'grant', 'human', 'system']);
export type DecidedBy = z.infer<typeof DecidedBy>;

export const DecisionScope = z.enum(['once', 'session', 'always']);
export type DecisionScope = z.infer<typeof DecisionScope>;

/**
 * Where a person decided: the CLI, the dashboard, the desktop app or a notification, a raw
 * socket, the MCP server, or a signed decision link and where that link was sent
 * (`link:email`, `link:ntfy`, …; see shared/remote.ts), a chat app's button
 * (`chat:telegram`, `chat:slack`, `chat:discord`), or a person on the team hub (`hub:<name>`, shared/hub-protocol.ts). The transport sets it, never the
 * client it serves (main/server/transport-channel.ts).
 */
export const DecisionChannel = z.union([
  z.enum([
    'cli',
    'dashboard',
    'desktop',
    'notification',
    'socket',
    'mcp',
    'link:email',
    'link:ntfy',
    'link:sms',
    'link:webhook',
    'link:desktop',
    'link:cli',
    'link:dashboard',
    'chat:telegram',
    'chat:slack',
    'chat:discord',
  ]),
  // A person on the team hub: the hub signed the decision, the machine checked it.
  z.templateLiteral(['hub:', z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/)]),
]);
export type DecisionChannel = z.infer<typeof DecisionChannel>;

export const Mode = z.enum(['normal', 'conservative', 'paused']);
export type Mode = z.infer<typeof Mode>;

export const SessionStatus = z.enum(['active', 'completed', 'failed', 'aborted', 'abandoned']);
export type SessionStatus = z.infer<typeof SessionStatus>;

/**
 * "Waiting for you": a request a person still has to decide. A timed-out request is one of
 * them (its agent stopped waiting, the request did not). Every count and list of the review
 * queue uses this one definition: `status`, `list`, the tray, the dashboard's badge.
 */
export const WAITING_STATUSES = [
  'pending',
  'timed_out',
] as const satisfies readonly RequestStatus[];
export type WaitingStatus = (typeof WAITING_STATUSES)[number];
/** Whether a request with this status waits for a person (SQL: main/store/waiting-sql.ts). */
export const isWaitingForYou = (status: string): status is WaitingStatus =>
  (WAITING_STATUSES as readonly string[]).includes(status);

/** A permission request as the review queue holds it. Times are ISO-8601 strings. */
export const RequestRecord = z.object({
  requestId: z.string(),
  sessionId: z.string(),
  agent: z.string(),
  project: z.string().optional(),
  action: z.string(),
  description: z.string(),
  rationale: z.string().optional(),
  urgency: Urgency,
  target: z.string().optional(),
  command: z.string().optional(),
  paths: z.array(z.string()).optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  dedupeKey: z.string().optional(),
  status: RequestStatus,
  tier: Tier,
  rule: z.string(),
  ruleReason: z.string(),
  /** The risk the rule gives the request (Gatehouse's own files: critical), for every view. */
  risk: Risk.optional(),
  createdAt: z.string(),
  timeoutAt: z.string().optional(),
  decidedAt: z.string().optional(),
  decidedBy: DecidedBy.optional(),
  /** The channel a person decided through, as its transport recorded it (see `decide`). */
  decidedVia: DecisionChannel.optional(),
  scope: DecisionScope.optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  conditions: z.array(z.string()).optional(),
  /**
   * Live facts of the asking agent, filled in when a person lists or opens a request (not
   * stored): whether a human paused or killed it, and whether its session has a connection
   * open now (an agent that is gone will not act on the answer).
   */
  agentState: z.enum(['running', 'paused', 'killed']).optional(),
  agentConnected: z.boolean().optional(),
  /**
   * What the request carries beyond its line (shared/request-picture/): the diff, the push,
   * the command breakdown; filled in when one request is opened (`request.get`), absent
   * while it is being computed and for requests that have none.
   */
  picture: RequestPicture.optional(),
});
export type RequestRecord = z.infer<typeof RequestRecord>;

export const SessionRecord = z.object({
  sessionId: z.string(),
  agent: z.string(),
  sessionKey: z.string().optional(),
  project: z.string().optional(),
  labels: z.record(z.string(), z.unknown()).optional(),
  status: SessionStatus,
  startedAt: z.string(),
  endedAt: z.string().optional(),
  costUsd: z.number(),
  connections: z.number().int(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

/**
 * What narrows a rule (or a remembered grant) below its whole action, as Claude Code's
 * `Bash(git push:*)` does. Every matcher that is set must match; a rule with none of them is
 * action-wide. `command` is compared whitespace-normalised; `commandPrefix` holds the leading
 * words (written `kubectl apply:*`); `paths` are picomatch globs that every path of the action
 * must match, relative to `project` when the rule has one.
 */
export const RuleMatchers = z.object({
  command: z.string().min(1).max(8192).optional(),
  commandPrefix: z.string().min(1).max(1024).optional(),
  target: z.string().min(1).max(4096).optional(),
  paths: z.array(z.string().min(1).max(4096)).min(1).max(200).optional(),
  project: z.string().min(1).max(4096).optional(),
});
export type RuleMatchers = z.infer<typeof RuleMatchers>;

/** A rule before it is saved: the action and its matchers (see `rules.preview`). */
export const RuleDraft = RuleMatchers.extend({ action: z.string().min(1).max(128) });
export type RuleDraft = z.infer<typeof RuleDraft>;

/** A user rule: promotes an action to `auto` or demotes it to `ask`, globally or per project. */
export const RuleRecord = z.object({
  ruleId: z.string(),
  action: z.string(),
  tier: Tier,
  project: z.string().optional(),
  target: z.string().optional(),
  command: z.string().optional(),
  commandPrefix: z.string().optional(),
  paths: z.array(z.string()).optional(),
  source: z.enum(['user', 'decision']),
  note: z.string().optional(),
  createdAt: z.string(),
});
export type RuleRecord = z.infer<typeof RuleRecord>;

export const AuditEvent = z.object({
  seq: z.number().int(),
  at: z.string(),
  type: z.string(),
  sessionId: z.string().optional(),
  agent: z.string().optional(),
  requestId: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

/** One guard's say on a `check`, `usage` or `outcome`. */
export const Verdict = z.object({
  breaker: z.string(),
  state: z.enum(['closed', 'open', 'half_open']),
  tripped: z.boolean(),
  warning: z.boolean(),
  reason: z.string().optional(),
  current: z.number(),
  threshold: z.number(),
  suggestion: z.string().optional(),
});
export type Verdict = z.infer<typeof Verdict>;

/** One entry of a session transcript. */
export const TranscriptEntry = z.object({
  at: z.string(),
  kind: z.enum(['log', 'request', 'decision', 'usage', 'outcome', 'control', 'session']),
  text: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

export const SessionSummary = z.object({
  sessionId: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  /** What was done, the first 200 at most (`doneTotal` counts every one). */
  done: z.array(z.string()),
  /** What needs a person, the first 200 at most (`needsReviewTotal` counts every one). */
  needsReview: z.array(z.string()),
  /** How many items `done` had in all (absent in summaries from before it was bounded). */
  doneTotal: z.number().int().nonnegative().optional(),
  needsReviewTotal: z.number().int().nonnegative().optional(),
  costUsd: z.number(),
  budgetRemainingPct: z.number().optional(),
  /** The rule suggestions the session ended with, one line each (also in `text`). */
  suggestions: z.array(z.string()).optional(),
  text: z.string(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const AgentState = z.object({
  agent: z.string(),
  state: z.enum(['running', 'paused', 'killed']),
  sessions: z.number().int(),
  connections: z.number().int(),
  lastSeenAt: z.string().optional(),
});
export type AgentState = z.infer<typeof AgentState>;
