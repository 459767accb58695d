/**
 * The MCP tools' input and output schemas, taken from the agent protocol's own schemas
 * (shared/protocol/agent-methods.ts) field by field, so that a limit or an enum changes in one
 * place. The MCP side only renames fields to snake_case (what LLMs call tools with) and adds
 * the descriptions a model reads.
 */
import { z } from 'zod';
import {
  AwaitParams,
  CheckParams,
  CheckResult,
  ClassifyParams,
  ClassifyResult,
  EndParams,
  GateParams,
  LogParams,
  RequestParams,
  RequestResult,
  UsageParams,
  UsageResult,
} from '../../shared/protocol/agent-methods';
import { SessionSummary } from '../../shared/domain';

const R = RequestParams.shape;
const A = RequestResult.shape;

/** Set on an error result: what went wrong, in words. The other fields then say "no". */
const error = z.string().optional().describe('Set when Gatehouse could not answer: why.');

export const actionName = R.action.describe(
  'The action as a snake_case name, e.g. read_file, run_tests, write_file, git_commit, git_push, create_pull_request, send_email, post_message, install_package, delete_files, deploy, purchase.',
);

export const actionFields = {
  target: R.target.describe(
    'What the action is aimed at: a remote and branch, an email address, a URL, an environment.',
  ),
  command: R.command.describe('The exact shell command, if the action is one.'),
  paths: R.paths.describe('Files the action reads, writes or deletes.'),
};

export const requestInput = {
  action: actionName,
  description: R.description.describe(
    'One sentence the human reads: exactly what will happen, e.g. "Push branch fix/auth (3 commits) to origin".',
  ),
  rationale: R.rationale.describe('Why this is needed now, in a sentence or two.'),
  urgency: R.urgency.describe('How soon the human should look: low, normal (default) or high.'),
  wait: R.wait.describe(
    'true (default): wait for the decision up to wait_seconds. false: queue it and continue at once.',
  ),
  ...actionFields,
};

/** get_decision's request id, as `await` takes it. */
export const requestIdInput = AwaitParams.shape.requestId.describe(
  'The request_id that request_permission returned.',
);

export const permissionOutput = {
  approved: z.boolean().describe('true only if you may go ahead now'),
  status: A.status,
  action: z.string(),
  request_id: A.requestId.optional(),
  decided_by: A.decidedBy,
  message: A.message,
  reason: A.reason,
  conditions: A.conditions,
  error,
};

export const classifyInput = {
  action: actionName,
  ...actionFields,
  risk: ClassifyParams.shape.risk,
};
export const classifyOutput = {
  action: z.string(),
  tier: ClassifyResult.shape.tier,
  needs_permission: z.boolean(),
  rule: ClassifyResult.shape.rule,
  reason: ClassifyResult.shape.reason,
  risk: ClassifyResult.shape.risk,
  error,
};

const U = UsageParams.shape;
export const usageInput = {
  model: U.model.describe('The model id, e.g. claude-sonnet-4-5.'),
  input_tokens: U.inputTokens,
  output_tokens: U.outputTokens,
  cost_usd: U.costUsd.describe('The cost in US dollars, if known; otherwise Gatehouse prices it.'),
  phase: U.phase.describe('The phase of your work, e.g. planning, coding, testing.'),
  operation: U.operation,
};
export const usageOutput = {
  recorded: z.boolean().describe('false when Gatehouse could not record it'),
  cost_usd: UsageResult.shape.costUsd.optional(),
  spent_session_usd: UsageResult.shape.spent.shape.session.optional(),
  spent_day_usd: UsageResult.shape.spent.shape.day.optional(),
  verdicts: UsageResult.shape.verdicts.optional(),
  error,
};

const L = LogParams.shape;
export const logInput = {
  type: L.type.describe('The kind of action, snake_case, e.g. read_file, run_tests, edit_file.'),
  description: L.description.describe('What you did, in a sentence.'),
  details: L.details.describe('Optional facts: files, counts, results.'),
};
export const logOutput = { ok: z.boolean(), error };

const C = CheckParams.shape;
export const checkInput = {
  phase: C.phase.describe('The phase of your work, e.g. coding.'),
  iteration: C.iteration.describe('Your iteration number in this phase.'),
  progress: C.progress.describe(
    'Did the last iteration make progress? false counts toward stagnation.',
  ),
  estimated_cost_usd: C.estimatedCostUsd.describe('The expected cost of the next operation.'),
  provider: C.provider,
  tool: C.tool,
};
export const checkOutput = {
  allowed: CheckResult.shape.allowed,
  mode: CheckResult.shape.mode,
  verdicts: CheckResult.shape.verdicts,
  restrictions: CheckResult.shape.restrictions,
  error,
};

const S = SessionSummary.shape;
export const endInput = {
  status: EndParams.shape.status.optional().describe('How the task ended (default completed).'),
};
export const endOutput = {
  ended: z.boolean().describe('false when Gatehouse could not record the end'),
  session_id: S.sessionId.optional(),
  done: S.done.optional(),
  needs_review: S.needsReview.optional(),
  cost_usd: S.costUsd.optional(),
  text: S.text.optional(),
  error,
};

const G = GateParams.shape;
/** Claude Code's `--permission-prompt-tool` input (Claude Code 2.1.330). */
export const permissionPromptInput = {
  tool_name: G.tool.describe('The tool Claude Code wants to run, e.g. Bash, Write, mcp__x__y.'),
  input: G.input.describe("The tool's input."),
  tool_use_id: G.toolUseId.describe("Claude Code's id of this tool call."),
};
