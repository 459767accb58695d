import { CONFIG_HOME_VARIABLES } from '../policy/config-homes';
import { GATEHOUSE_SECRET_VARIABLES } from '../tools/secret-variables';
import { z } from 'zod';
import { MAX_CONTEXT_BYTES, MAX_COST_USD, MAX_TIMEOUT_MS, MAX_TOKENS } from './constants';
import { MAX_SHELL_PATH } from '../policy/shell-path';
import { DecidedBy, Mode, Risk, SessionSummary, Tier, Urgency, Verdict } from '../domain';

const JsonObject = z.record(z.string(), z.unknown());

export const HelloParams = z.object({
  agent: z.string().min(1).max(64),
  sessionKey: z.string().min(1).max(256).optional(),
  project: z.string().min(1).max(4096).optional(),
  labels: JsonObject.optional(),
});
export const HelloResult = z.object({
  sessionId: z.string(),
  protocol: z.literal(1),
  server: z.object({ name: z.literal('gatehouse'), version: z.string() }),
  mode: Mode,
});

/** What an action is about: shared by classify and request. */
const ActionFields = {
  action: z.string().min(1).max(128),
  target: z.string().max(4096).optional(),
  command: z.string().max(65536).optional(),
  paths: z.array(z.string().max(4096)).max(1000).optional(),
  /**
   * Set by an SDK whose action was larger than Gatehouse parses: the fields hold its start,
   * this its full size in bytes as JSON. The action asks (`protected:too_large`).
   */
  oversize: z.number().int().positive().optional(),
};

export const ClassifyParams = z.object({ ...ActionFields, risk: Risk.optional() });
export const ClassifyResult = z.object({
  tier: Tier,
  rule: z.string(),
  reason: z.string(),
  /** Present when the finding has a risk of its own (Gatehouse's files: critical). */
  risk: Risk.optional(),
});

export const RequestParams = z.object({
  ...ActionFields,
  description: z.string().min(1).max(8192),
  rationale: z.string().max(8192).optional(),
  urgency: Urgency.default('normal'),
  wait: z.boolean().default(true),
  timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
  risk: Risk.optional(),
  context: JsonObject.refine((c) => JSON.stringify(c).length <= MAX_CONTEXT_BYTES, {
    message: `context must be at most ${MAX_CONTEXT_BYTES} bytes as JSON`,
  }).optional(),
  dedupeKey: z.string().min(1).max(256).optional(),
});
export const RequestResult = z.object({
  requestId: z.string(),
  status: z.enum(['approved', 'denied', 'timed_out', 'queued', 'cancelled', 'pending']),
  decidedBy: DecidedBy.optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  conditions: z.array(z.string()).optional(),
  /** An approval of an edited tool call (`gate`): the input the person approved. */
  updatedInput: JsonObject.optional(),
});
export type RequestResult = z.infer<typeof RequestResult>;

/**
 * `gate`: an agent adapter relays one native tool call; the daemon maps it to actions,
 * classifies them, logs or files the most restrictive ask, and answers.
 */
/** One optional folder for each of {@link CONFIG_HOME_VARIABLES}, so the two cannot drift. */
const configHomeFolder = z.string().max(4096).optional();
const configHomeShape = Object.fromEntries(
  Object.keys(CONFIG_HOME_VARIABLES).map((name) => [name, configHomeFolder]),
) as Record<keyof typeof CONFIG_HOME_VARIABLES, typeof configHomeFolder>;

export const GateParams = z.object({
  client: z.string().min(1).max(64),
  event: z.string().min(1).max(64),
  tool: z.string().min(1).max(256),
  input: JsonObject.refine((i) => JSON.stringify(i).length <= MAX_CONTEXT_BYTES, {
    message: `input must be at most ${MAX_CONTEXT_BYTES} bytes as JSON`,
  }),
  toolUseId: z.string().max(256).optional(),
  cwd: z.string().max(4096).optional(),
  permissionMode: z.string().max(64).optional(),
  /**
   * An MCP tool's server and name when the agent reports them apart from `tool` (Gemini CLI's
   * `mcp_context`): the action is `mcp:<server>:<tool>` without splitting the tool's name.
   */
  mcp: z
    .object({ server: z.string().min(1).max(128), tool: z.string().min(1).max(128) })
    .optional(),
  wait: z.boolean().default(true),
  timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
  /**
   * Set by a hook relay whose tool input was larger than Gatehouse parses: `input` holds it
   * clipped, this its full size in bytes as JSON. The call asks.
   */
  oversize: z.number().int().positive().optional(),
  /**
   * The CDPATH the agent's shell inherits, as the hook's own environment has it: `cd name`
   * goes to the first CDPATH folder holding `name`, so paths are resolved through it.
   */
  cdpath: z.string().max(4096).optional(),
  /**
   * The PATH the agent's shell inherits, as the hook's own environment has it: a program
   * written into one of its folders runs in place of one of the same name later (an `ls` or
   * `git` Gatehouse allows), so writes there are protected.
   */
  shellPath: z.string().max(MAX_SHELL_PATH).optional(),
  /**
   * Gatehouse's secret variables set in the hook's environment, which the agent's commands
   * inherit (shared/tools/secret-variables.ts): a command printing the whole environment
   * would show them, so it asks.
   */
  secretVariables: z.array(z.enum(GATEHOUSE_SECRET_VARIABLES)).max(8).optional(),
  /**
   * The agent's configuration folders where its environment moves them (the variables of
   * shared/policy/config-homes.ts, such as `CODEX_HOME`; absolute paths): the hooks and settings
   * there are protected as they are in the folders they stand for (`~/.codex` and so on).
   */
  configHomes: z.object(configHomeShape).strict().optional(),
  /**
   * Set by a hook whose agent cannot show the model a person's approval note with the answer
   * (Gemini CLI's BeforeTool): the daemon keeps the note of a person's approval for `note`,
   * which the hook's after-the-call event asks for.
   */
  keepNote: z.literal(true).optional(),
});
export const GateAction = z.object({
  action: z.string(),
  tier: Tier,
  rule: z.string(),
  risk: Risk.optional(),
});
export const GateResult = z.object({
  /** `none`: an internal tool, no opinion; `pending`: the wait ended, the request is queued. */
  outcome: z.enum(['allow', 'deny', 'pending', 'none']),
  reason: z.string(),
  requestId: z.string().optional(),
  decidedBy: DecidedBy.optional(),
  /** The agent is paused or killed, or a breaker says stop: the adapter stops the agent. */
  stop: z.object({ reason: z.string() }).optional(),
  actions: z.array(GateAction),
  /**
   * Set on an `allow` that a person gave (their approval, a grant or a rule of theirs): the
   * call may run outside the agent's OS sandbox, and the adapter says so to the agent (Claude
   * Code: `dangerouslyDisableSandbox`). Absent, the call runs sandboxed, and a request of the
   * agent's own to leave the sandbox is taken out of its input.
   */
  outsideSandbox: z.literal(true).optional(),
  /** An `allow` of a call the person edited: the tool input to run instead of the agent's. */
  updatedInput: JsonObject.optional(),
});
export type GateResult = z.infer<typeof GateResult>;

/**
 * `note`: after a tool call ran, the note a person gave with its approval, kept by `gate`
 * (`keepNote`) for this session's call with the same tool and input; handed out once.
 */
export const NoteParams = z.object({
  tool: z.string().min(1).max(256),
  input: JsonObject.refine((i) => JSON.stringify(i).length <= MAX_CONTEXT_BYTES, {
    message: `input must be at most ${MAX_CONTEXT_BYTES} bytes as JSON`,
  }),
});
export const NoteResult = z.object({
  /** Absent when no person's approval of this call left a note. */
  note: z.string().optional(),
});

export const AwaitParams = z.object({
  requestId: z.string().min(1),
  timeoutMs: z.number().int().nonnegative().max(MAX_TIMEOUT_MS).optional(),
});
export const CancelParams = z.object({ requestId: z.string().min(1) });
export const CancelResult = z.object({ status: z.literal('cancelled') });

export const LogParams = z.object({
  type: z.string().min(1).max(128),
  description: z.string().min(1).max(8192),
  tier: Tier.optional(),
  details: JsonObject.optional(),
});
export const OkResult = z.object({ ok: z.literal(true) });

export const UsageParams = z.object({
  model: z.string().min(1).max(256),
  inputTokens: z.number().int().nonnegative().max(MAX_TOKENS),
  outputTokens: z.number().int().nonnegative().max(MAX_TOKENS),
  // Finite (zod 4 numbers reject Infinity) and bounded; the engine applies the lower setting.
  costUsd: z.number().nonnegative().max(MAX_COST_USD).optional(),
  phase: z.string().max(128).optional(),
  operation: z.string().max(256).optional(),
});
export const UsageResult = z.object({
  costUsd: z.number(),
  spent: z.object({ session: z.number(), day: z.number() }),
  verdicts: z.array(Verdict),
});

export const CheckParams = z.object({
  phase: z.string().max(128).optional(),
  iteration: z.number().int().nonnegative().max(MAX_TOKENS).optional(),
  progress: z.boolean().optional(),
  estimatedCostUsd: z.number().nonnegative().max(MAX_COST_USD).optional(),
  provider: z.string().max(128).optional(),
  tool: z.string().max(128).optional(),
});
/** What an agent in conservative mode should restrict (the safety switch). */
export const Restrictions = z.object({
  model: z.string().optional(),
  maxTokens: z.number().int(),
  stream: z.literal(false),
  blockedOperations: z.array(z.string()),
});

export const CheckResult = z.object({
  allowed: z.boolean(),
  mode: Mode,
  verdicts: z.array(Verdict),
  /** Present in conservative mode: an addition to docs/protocol.md v1, ignorable by old clients. */
  restrictions: Restrictions.optional(),
});

export const OutcomeParams = z.object({
  ok: z.boolean(),
  source: z.string().min(1).max(256),
  message: z.string().max(65536).optional(),
  output: z
    .string()
    .max(1024 * 1024)
    .optional(),
  httpStatus: z.number().int().min(100).max(599).optional(),
  provider: z.string().max(128).optional(),
  tool: z.string().max(128).optional(),
  durationMs: z
    .number()
    .nonnegative()
    .max(MAX_TIMEOUT_MS * 365)
    .optional(),
});
export const OutcomeResult = z.object({ verdicts: z.array(Verdict) });

export const EndParams = z.object({ status: z.enum(['completed', 'failed', 'aborted']) });
export const EndResult = z.object({ summary: SessionSummary });

/** Server-to-agent notifications. */
export const DecisionNotification = z.object({
  requestId: z.string(),
  status: z.enum(['approved', 'denied', 'cancelled', 'timed_out']),
  decidedBy: DecidedBy,
  message: z.string().optional(),
  reason: z.string().optional(),
  conditions: z.array(z.string()).optional(),
});
export type DecisionNotification = z.infer<typeof DecisionNotification>;
export const ControlNotification = z.object({
  state: z.enum(['paused', 'resumed', 'killed']),
  reason: z.string().optional(),
});
export type ControlNotification = z.infer<typeof ControlNotification>;
