import { z } from 'zod';
import { TeamPolicyInfo, TeamRule } from '../policy/team-policy';
import {
  AgentState,
  AuditEvent,
  DecisionChannel,
  DecisionScope,
  RequestRecord,
  RequestStatus,
  RuleDraft,
  RuleMatchers,
  RuleRecord,
  SessionRecord,
  SessionSummary,
  Tier,
  TranscriptEntry,
} from '../domain';

export const AuthParams = z.object({ token: z.string().min(1).max(512) });

/**
 * A decision envelope: an approval that also covers later identical actions for a while,
 * ending at whichever limit is reached first.
 */
export const Envelope = z.object({
  minutes: z
    .number()
    .positive()
    .max(24 * 60 * 30)
    .optional(),
  uses: z.number().int().positive().max(100000).optional(),
  maxSpendUsd: z.number().positive().optional(),
});
export type Envelope = z.infer<typeof Envelope>;

export const DecideParams = z.object({
  requestId: z.string().min(1),
  decision: z.enum(['approve', 'deny']),
  scope: DecisionScope.default('once'),
  envelope: Envelope.optional(),
  message: z.string().max(8192).optional(),
  reason: z.string().max(8192).optional(),
  conditions: z.array(z.string().min(1).max(1024)).max(50).optional(),
  /**
   * What a session, envelope or "always" approval remembers (see `rules.preview`). It must be
   * for the request's action and cover the request; without it the narrowest draft is used.
   */
  rule: RuleDraft.optional(),
  /**
   * The decision's channel, recorded with it in the request and its audit entry and shown in
   * its history. Each transport sets it: the dashboard's HTTP API always records `dashboard`,
   * the desktop window `desktop`, a decision link `link:<channel>`; over the socket a client
   * may say `cli` or `mcp`, and anything else is recorded as `socket`.
   */
  via: DecisionChannel.optional(),
  /**
   * Approve an edited call instead of the one the agent asked (its tool input, e.g. the
   * command): only for a tool call of an agent whose hooks take edited input (Claude Code),
   * approved once, while the agent waits. The edited call is classified again; one riskier
   * than the original needs `confirmRiskier`. The audit keeps both.
   */
  edit: z
    .object({
      input: z.record(z.string(), z.unknown()).refine((i) => JSON.stringify(i).length <= 65_536, {
        message: 'the edited input must be at most 64 KB as JSON',
      }),
      confirmRiskier: z.boolean().optional(),
    })
    .optional(),
});
export type DecideParams = z.infer<typeof DecideParams>;

/** A rule an approval created, with what it covers in plain words. */
export const CreatedRule = z.object({ ruleId: z.string(), description: z.string() });
/** A grant an approval issued (late approval, session, envelope), with what it covers. */
export const IssuedGrant = z.object({
  grantId: z.string(),
  kind: z.enum(['late_approval', 'session', 'envelope']),
  description: z.string(),
});
export const DecideResult = z.object({
  request: RequestRecord,
  rule: CreatedRule.optional(),
  grants: z.array(IssuedGrant).optional(),
});

export const DecideManyParams = DecideParams.omit({ requestId: true }).extend({
  requestIds: z.array(z.string().min(1)).min(1).max(500),
});
export const DecideManyResult = z.object({
  decided: z.array(RequestRecord),
  /** The rules "always" created, one per approved request. */
  rules: z.array(CreatedRule.extend({ requestId: z.string() })).optional(),
  failed: z.array(z.object({ requestId: z.string(), error: z.string() })),
});

/**
 * Paging of the lists that grow with history: at most `limit` items, then `nextCursor` (absent
 * on the last page) to pass as `cursor` for the next; `total` counts every match.
 */
const Cursor = z.string().max(200).optional();
const PageInfo = {
  /** How many items match in all (every page). */
  total: z.number().int().nonnegative().optional(),
  /** Pass as `cursor` to read the next page; absent on the last page. */
  nextCursor: z.string().optional(),
};

export const PendingListParams = z.object({
  agent: z.string().optional(),
  /** Only requests whose agent's session has a connection open now (true) or none (false). */
  agentConnected: z.boolean().optional(),
  /**
   * `attention` (the default): what needs the person first — blocked agents, then urgency,
   * then the oldest (shared/queue-order.ts); or `oldest` / `newest` first.
   */
  order: z.enum(['attention', 'oldest', 'newest']).default('attention'),
  limit: z.number().int().positive().max(5000).default(1000),
  cursor: Cursor,
});
export const RequestListResult = z.object({ requests: z.array(RequestRecord), ...PageInfo });

export const RequestsQueryParams = z.object({
  status: z.array(RequestStatus).optional(),
  agent: z.string().optional(),
  sessionId: z.string().optional(),
  action: z.string().optional(),
  limit: z.number().int().positive().max(5000).default(200),
  cursor: Cursor,
});
export const RequestGetParams = z.object({ requestId: z.string().min(1) });
export const RequestGetResult = z.object({ request: RequestRecord });
/** `request.diff`: the full diff of what a request's push sends, computed when asked. */
export const RequestDiffParams = z.object({ requestId: z.string().min(1) });
export const RequestDiffResult = z.object({
  /** The diff, secrets masked, bounded; absent when there is none to show. */
  diff: z.string().optional(),
  /** What was left out, or why there is no diff. */
  omitted: z.string().optional(),
});

export const AgentsListResult = z.object({ agents: z.array(AgentState) });
export const PauseParams = z.object({
  agent: z.string().optional(),
  reason: z.string().max(1024).optional(),
});
export const PauseResult = z.object({
  agents: z.array(z.string()),
  state: z.enum(['paused', 'resumed', 'killed']),
});

export const SessionsListParams = z.object({
  agent: z.string().optional(),
  status: z.enum(['active', 'ended', 'all']).default('all'),
  limit: z.number().int().positive().max(5000).default(100),
  cursor: Cursor,
});
export const SessionsListResult = z.object({ sessions: z.array(SessionRecord), ...PageInfo });
export const SessionGetParams = z.object({
  sessionId: z.string().min(1),
  /** How many of the newest requests `requests` holds (0: only the count). */
  requestsLimit: z.number().int().nonnegative().max(5000).default(100),
  /** How many of the newest transcript entries `transcript` holds (0: only the count). */
  transcriptLimit: z.number().int().nonnegative().max(5000).default(200),
});
export const SessionGetResult = z.object({
  session: SessionRecord,
  summary: SessionSummary.optional(),
  /**
   * The newest `transcriptLimit` entries, oldest first; `transcriptTotal` counts them all
   * (the rest: `session.transcript`).
   */
  transcript: z.array(TranscriptEntry),
  transcriptTotal: z.number().int().nonnegative(),
  /**
   * The newest `requestsLimit` requests, oldest first; `requestsTotal` counts them all (the
   * rest: `requests.query` with `sessionId`).
   */
  requests: z.array(RequestRecord),
  requestsTotal: z.number().int().nonnegative(),
});

/** A session's transcript a page at a time, newest first (its requests are entries too). */
export const SessionTranscriptParams = z.object({
  sessionId: z.string().min(1),
  limit: z.number().int().positive().max(5000).default(200),
  cursor: Cursor,
});
export const SessionTranscriptResult = z.object({
  transcript: z.array(TranscriptEntry),
  ...PageInfo,
});

export const SessionReportParams = z.object({ sessionId: z.string().min(1) });
export const SessionReportResult = z.object({
  /** The report in Markdown. */
  markdown: z.string(),
  /** A file name to save it under, e.g. `gatehouse-report-ses-….md`. */
  filename: z.string(),
});

export const AuditQueryParams = z.object({
  type: z.string().optional(),
  sessionId: z.string().optional(),
  agent: z.string().optional(),
  requestId: z.string().optional(),
  since: z.string().optional(),
  /** Entries before this time (ISO 8601), for exports of a time range. */
  until: z.string().optional(),
  afterSeq: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().max(5000).default(200),
  cursor: Cursor,
  /** Count every match into `total` (off by default: a count walks the whole range). */
  withTotal: z.boolean().optional(),
});
export const AuditQueryResult = z.object({ events: z.array(AuditEvent), ...PageInfo });

export const RulesListResult = z.object({
  rules: z.array(RuleRecord),
  /** The team policy this machine runs (from its hub): it outranks every rule above. */
  team: TeamPolicyInfo.extend({ rules: z.array(TeamRule) }).optional(),
});
export const RuleAddParams = RuleMatchers.extend({
  action: z.string().min(1).max(128),
  tier: Tier,
  note: z.string().max(1024).optional(),
});
export const RuleAddResult = z.object({ rule: RuleRecord, description: z.string() });

/** The narrowest rule an "always" approval of this request would save, and how to widen it. */
export const RulesPreviewParams = z.object({ requestId: z.string().min(1) });
export const RulesPreviewResult = z.object({
  draft: RuleDraft,
  /** Each step widens the one before by one notch; every one still covers the request. */
  widenings: z.array(RuleDraft),
  /** Plain words for the draft, then for each widening, in the same order. */
  describe: z.array(z.string()),
});
export const RuleRemoveParams = z.object({ ruleId: z.string().min(1) });
export const RuleRemoveResult = z.object({ removed: z.literal(true) });

export const SettingsGetParams = z.object({ key: z.string().optional() });
export const SettingsGetResult = z.object({
  settings: z.record(z.string(), z.unknown()),
  value: z.unknown().optional(),
});
export const SettingsSetParams = z.object({ key: z.string().min(1), value: z.unknown() });
export const SettingsSetResult = z.object({ settings: z.record(z.string(), z.unknown()) });

/** How one notification channel is doing: the last delivery and the last error. */
export const ChannelHealth = z.object({
  channel: z.string(),
  enabled: z.boolean(),
  /**
   * `ok`: the last attempt delivered; `failing`: the last attempt failed, or the chat app's
   * way back fails (then `lastError` is its error, `lastErrorAt` since when); `unavailable`: the
   * channel found no service to deliver to (no desktop notification daemon) and retries
   * later; `idle`: enabled, nothing sent yet; `disabled`: off in the settings.
   */
  state: z.enum(['ok', 'failing', 'unavailable', 'idle', 'disabled']),
  lastDeliveryAt: z.string().optional(),
  lastErrorAt: z.string().optional(),
  lastError: z.string().optional(),
  /**
   * A chat app's way back (the connection its button presses come over: Telegram's poll,
   * Slack's Socket Mode, Discord's Gateway): whether it is connected now, since when, and why
   * not.
   */
  wayBack: z
    .object({ connected: z.boolean(), since: z.string(), error: z.string().optional() })
    .optional(),
});
export type ChannelHealth = z.infer<typeof ChannelHealth>;
export type ChannelWayBack = NonNullable<ChannelHealth['wayBack']>;

export const PendingAgentsAway = z.object({
  paused: z.number().int(),
  killed: z.number().int(),
  gone: z.number().int(),
});
export type PendingAgentsAway = z.infer<typeof PendingAgentsAway>;

/** A joined machine's link to its hub, as `status` reports it (docs/hub.md). */
export const HubLinkStatus = z.object({
  url: z.string(),
  machineName: z.string(),
  /** The link is up: authenticated both ways, publishing and receiving decisions. */
  connected: z.boolean(),
  /** Since when it is up or down (ISO-8601); absent before the first attempt. */
  since: z.string().optional(),
  /** Why it is down, in the link's words (refused, unreachable …). */
  error: z.string().optional(),
  /** Entries waiting to be published (the durable outbox). */
  outbox: z.number().int(),
  /** Ids of the waiting requests the hub shows too (published and delivered). */
  shownOnHub: z.array(z.string()),
  /** The team policy version this machine runs, from its hub; absent when none. */
  teamPolicy: TeamPolicyInfo.optional(),
});
export type HubLinkStatus = z.infer<typeof HubLinkStatus>;

export const StatusResult = z.object({
  version: z.string(),
  pid: z.number().int(),
  socketPath: z.string(),
  home: z.string(),
  startedAt: z.string(),
  /** Requests waiting for a person: pending plus timed out and still undecided. */
  pending: z.number().int(),
  /** How many of `pending` timed out (their agents stopped waiting; the requests did not). */
  timedOut: z.number().int(),
  /**
   * How many of `pending` were asked by agents that will not act on an answer now (see
   * shared/agent-presence.ts): paused or killed by a person, or gone (no connection of the
   * session open). Absent when there are none.
   */
  pendingAgentsAway: PendingAgentsAway.optional(),
  activeSessions: z.number().int(),
  agents: z.number().int(),
  paused: z.boolean(),
  dashboardUrl: z.string().optional(),
  /**
   * The dashboard's port when an environment variable (GATEHOUSE_DASHBOARD_PORT) set it at
   * start, overriding the `dashboard.port` setting: the settings view says so by the field.
   */
  dashboardPortFromEnv: z.object({ variable: z.string(), port: z.number().int() }).optional(),
  /** Each notification channel's health, when the notifier runs in this process. */
  channels: z.array(ChannelHealth).optional(),
  /** The team hub this machine joined (`gatehouse hub join`) and its link; absent when none. */
  hub: HubLinkStatus.optional(),
  /** The team policy this machine runs (kept after leaving the hub); absent when none. */
  teamPolicy: TeamPolicyInfo.optional(),
});

export const Empty = z.object({}).default({});

/** The admin methods whose schemas are in this file, as rows of the method map. */
export const coreAdminMethods = {
  status: { params: Empty, result: StatusResult, mutates: false },
  'pending.list': { params: PendingListParams, result: RequestListResult, mutates: false },
  'requests.query': { params: RequestsQueryParams, result: RequestListResult, mutates: false },
  'request.get': { params: RequestGetParams, result: RequestGetResult, mutates: false },
  'request.diff': { params: RequestDiffParams, result: RequestDiffResult, mutates: false },
  decide: { params: DecideParams, result: DecideResult, mutates: true },
  decideMany: { params: DecideManyParams, result: DecideManyResult, mutates: true },
  'agents.list': { params: Empty, result: AgentsListResult, mutates: false },
  pause: { params: PauseParams, result: PauseResult, mutates: true },
  resume: { params: PauseParams, result: PauseResult, mutates: true },
  kill: { params: PauseParams, result: PauseResult, mutates: true },
  'sessions.list': { params: SessionsListParams, result: SessionsListResult, mutates: false },
  'session.get': { params: SessionGetParams, result: SessionGetResult, mutates: false },
  'session.transcript': {
    params: SessionTranscriptParams,
    result: SessionTranscriptResult,
    mutates: false,
  },
  'session.report': {
    params: SessionReportParams,
    result: SessionReportResult,
    mutates: false,
  },
  'audit.query': { params: AuditQueryParams, result: AuditQueryResult, mutates: false },
  'rules.list': { params: Empty, result: RulesListResult, mutates: false },
  'rules.add': { params: RuleAddParams, result: RuleAddResult, mutates: true },
  'rules.preview': { params: RulesPreviewParams, result: RulesPreviewResult, mutates: false },
  'rules.remove': { params: RuleRemoveParams, result: RuleRemoveResult, mutates: true },
  'settings.get': { params: SettingsGetParams, result: SettingsGetResult, mutates: false },
  'settings.set': { params: SettingsSetParams, result: SettingsSetResult, mutates: true },
} as const;
