import { createHash } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { GatehouseLink } from './gatehouse-link';
import { fail, failure, ok, permissionData, permissionText, verdictText } from './tool-results';
import { keepAlive, type ToolExtra } from './keep-alive';

/** How long request_permission waits for a human when the model does not say. */
export const DEFAULT_WAIT_SECONDS = 50;

const actionName = z
  .string()
  .min(1)
  .max(128)
  .describe(
    'The action as a snake_case name, e.g. read_file, run_tests, write_file, git_commit, git_push, create_pull_request, send_email, post_message, install_package, delete_files, deploy, purchase.',
  );
const actionFields = {
  target: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'What the action is aimed at: a remote and branch, an email address, a URL, an environment.',
    ),
  command: z
    .string()
    .max(65536)
    .optional()
    .describe('The exact shell command, if the action is one.'),
  paths: z
    .array(z.string().max(4096))
    .max(1000)
    .optional()
    .describe('Files the action reads, writes or deletes.'),
};
const verdicts = z.array(
  z.object({ breaker: z.string(), tripped: z.boolean(), warning: z.boolean() }).passthrough(),
);
const permissionOutput = {
  approved: z.boolean().describe('true only if you may go ahead now'),
  status: z.enum(['approved', 'denied', 'timed_out', 'queued', 'cancelled', 'pending']),
  action: z.string(),
  request_id: z.string().optional(),
  decided_by: z.string().optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  conditions: z.array(z.string()).optional(),
};

/** Registers Gatehouse's tools on an MCP server; every call goes through `link`. */
export function registerGatehouseTools(server: McpServer, link: GatehouseLink): void {
  server.registerTool(
    'request_permission',
    {
      title: 'Ask a human for permission',
      description:
        'Ask the human supervising you for permission before any action that talks to another person, leaves your sandbox or cannot be undone (pushing code, opening pull requests, sending email or messages, installing packages, deleting files, deploying, spending money). ' +
        'Only act if the result says approved: true. If denied, do not do it. If timed_out or queued, do not do it yet: continue with other work and call get_decision later. ' +
        'Use check_action first if you are unsure whether an action needs permission.',
      inputSchema: {
        action: actionName,
        description: z
          .string()
          .min(1)
          .max(8192)
          .describe(
            'One sentence the human reads: exactly what will happen, e.g. "Push branch fix/auth (3 commits) to origin".',
          ),
        rationale: z
          .string()
          .max(8192)
          .optional()
          .describe('Why this is needed now, in a sentence or two.'),
        urgency: z
          .enum(['low', 'normal', 'high'])
          .optional()
          .describe('How soon the human should look: low, normal (default) or high.'),
        wait: z
          .boolean()
          .optional()
          .describe(
            'true (default): wait for the decision up to wait_seconds. false: queue it and continue at once.',
          ),
        wait_seconds: z
          .number()
          .int()
          .min(1)
          .max(3600)
          .optional()
          .describe(
            `How long to wait for a human when wait is true (default ${DEFAULT_WAIT_SECONDS}).`,
          ),
        ...actionFields,
      },
      outputSchema: permissionOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (a, extra) => {
      const wait = a.wait ?? true;
      const seconds = a.wait_seconds ?? DEFAULT_WAIT_SECONDS;
      const spec = {
        action: a.action,
        ...(a.target ? { target: a.target } : {}),
        ...(a.command ? { command: a.command } : {}),
        ...(a.paths ? { paths: a.paths } : {}),
      };
      const stop = wait
        ? keepAlive(extra as ToolExtra, `waiting for a human to decide on ${a.action}`)
        : () => {};
      try {
        const answer = await link.request({
          ...spec,
          description: a.description,
          ...(a.rationale ? { rationale: a.rationale } : {}),
          ...(a.urgency ? { urgency: a.urgency } : {}),
          wait,
          ...(wait ? { timeoutMs: seconds * 1000 } : {}),
          // The same question asked again while it is still pending is the same request.
          dedupeKey: `mcp:${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 32)}`,
        });
        const text = permissionText(a.action, answer, seconds);
        // The SDK fails closed without a request id when Gatehouse could not answer.
        if (!answer.requestId && answer.status === 'denied')
          return fail(
            `NOT APPROVED: ${answer.reason ?? 'Gatehouse could not answer'}. Do not ${a.action}.`,
            permissionData(a.action, answer),
          );
        return ok(text, permissionData(a.action, answer));
      } catch (error) {
        return fail(`NOT APPROVED: ${failure(error)} Do not ${a.action}.`, {
          approved: false,
          status: 'denied',
          action: a.action,
          decided_by: 'system',
          reason: failure(error),
        });
      } finally {
        stop();
      }
    },
  );

  server.registerTool(
    'get_decision',
    {
      title: 'Check on a permission request',
      description:
        'Look up (and optionally wait for) the decision on a request_permission call that was queued or timed out. Only act if approved is true.',
      inputSchema: {
        request_id: z.string().min(1).describe('The request_id that request_permission returned.'),
        wait_seconds: z
          .number()
          .int()
          .min(0)
          .max(3600)
          .optional()
          .describe('How long to wait for a decision (default 0: just look).'),
      },
      outputSchema: permissionOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a, extra) => {
      const seconds = a.wait_seconds ?? 0;
      const stop =
        seconds > 0
          ? keepAlive(extra as ToolExtra, `waiting for a decision on ${a.request_id}`)
          : () => {};
      try {
        const answer = await link.call((c) =>
          c.await({ requestId: a.request_id, timeoutMs: seconds * 1000 }),
        );
        const action = 'the requested action';
        return ok(
          permissionText(action, answer, seconds).replace(`NO DECISION YET`, 'STILL WAITING'),
          permissionData(action, answer),
        );
      } catch (error) {
        return fail(`NOT APPROVED: ${failure(error)}`, {
          approved: false,
          status: 'denied',
          action: 'unknown',
          request_id: a.request_id,
          decided_by: 'system',
          reason: failure(error),
        });
      } finally {
        stop();
      }
    },
  );

  server.registerTool(
    'check_action',
    {
      title: 'Does this action need permission?',
      description:
        "Ask whether an action is auto-allowed or needs a human's permission, without doing anything. If needs_permission is true, call request_permission before doing it; if false, go ahead.",
      inputSchema: {
        action: actionName,
        ...actionFields,
        risk: z
          .enum(['low', 'medium', 'high', 'critical'])
          .optional()
          .describe('Your own estimate of the risk, if you have one.'),
      },
      outputSchema: {
        action: z.string(),
        tier: z.enum(['auto', 'ask']),
        needs_permission: z.boolean(),
        rule: z.string(),
        reason: z.string(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) => {
      try {
        const r = await link.call((c) => c.classify(a));
        const data = {
          action: a.action,
          tier: r.tier,
          needs_permission: r.tier === 'ask',
          rule: r.rule,
          reason: r.reason,
        };
        return ok(
          r.tier === 'auto'
            ? `${a.action} is auto-allowed (${r.rule}: ${r.reason}); go ahead.`
            : `${a.action} needs permission (${r.rule}: ${r.reason}); call request_permission before doing it.`,
          data,
        );
      } catch (error) {
        return fail(`${failure(error)} Treat ${a.action} as needing permission.`);
      }
    },
  );

  server.registerTool(
    'report_usage',
    {
      title: 'Report model usage and cost',
      description:
        'Report the tokens (and cost, if you know it) of a model call, so Gatehouse can keep budgets. If the result mentions a tripped budget, stop and tell the user.',
      inputSchema: {
        model: z.string().min(1).max(256).describe('The model id, e.g. claude-sonnet-4-5.'),
        input_tokens: z.number().int().nonnegative(),
        output_tokens: z.number().int().nonnegative(),
        cost_usd: z
          .number()
          .nonnegative()
          .optional()
          .describe('The cost in US dollars, if known; otherwise Gatehouse prices it.'),
        phase: z
          .string()
          .max(128)
          .optional()
          .describe('The phase of your work, e.g. planning, coding, testing.'),
        operation: z.string().max(256).optional(),
      },
      outputSchema: {
        cost_usd: z.number(),
        spent_session_usd: z.number(),
        spent_day_usd: z.number(),
        verdicts,
      },
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async (a) => {
      try {
        const r = await link.call((c) =>
          c.usage({
            model: a.model,
            inputTokens: a.input_tokens,
            outputTokens: a.output_tokens,
            ...(a.cost_usd !== undefined ? { costUsd: a.cost_usd } : {}),
            ...(a.phase ? { phase: a.phase } : {}),
            ...(a.operation ? { operation: a.operation } : {}),
          }),
        );
        const notes = verdictText(r.verdicts);
        return ok(
          `Recorded $${r.costUsd.toFixed(4)} (session $${r.spent.session.toFixed(4)}, today $${r.spent.day.toFixed(4)}).${notes ? ` ${notes}` : ''}`,
          {
            cost_usd: r.costUsd,
            spent_session_usd: r.spent.session,
            spent_day_usd: r.spent.day,
            verdicts: r.verdicts,
          },
        );
      } catch (error) {
        return fail(failure(error));
      }
    },
  );

  server.registerTool(
    'log_action',
    {
      title: 'Record an action you took',
      description:
        'Record something you did (read files, ran tests, edited code) in the session transcript the human reviews. Call it after each meaningful step.',
      inputSchema: {
        type: z
          .string()
          .min(1)
          .max(128)
          .describe('The kind of action, snake_case, e.g. read_file, run_tests, edit_file.'),
        description: z.string().min(1).max(8192).describe('What you did, in a sentence.'),
        details: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('Optional facts: files, counts, results.'),
      },
      outputSchema: { ok: z.boolean() },
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (a) => {
      try {
        await link.call((c) => c.log(a));
        return ok('Logged.', { ok: true });
      } catch (error) {
        return fail(failure(error));
      }
    },
  );

  server.registerTool(
    'check_budget',
    {
      title: 'May I continue?',
      description:
        'Call before each iteration of a loop or before a costly operation. If allowed is false, STOP: a breaker is open, a budget is spent, a provider is cooling down or a human paused you; tell the user why instead of continuing.',
      inputSchema: {
        phase: z.string().max(128).optional().describe('The phase of your work, e.g. coding.'),
        iteration: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe('Your iteration number in this phase.'),
        progress: z
          .boolean()
          .optional()
          .describe('Did the last iteration make progress? false counts toward stagnation.'),
        estimated_cost_usd: z
          .number()
          .nonnegative()
          .optional()
          .describe('The expected cost of the next operation.'),
        provider: z.string().max(128).optional(),
        tool: z.string().max(128).optional(),
      },
      outputSchema: {
        allowed: z.boolean(),
        mode: z.enum(['normal', 'conservative', 'paused']),
        verdicts,
      },
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async (a) => {
      try {
        const { estimated_cost_usd, ...rest } = a;
        const r = await link.call((c) =>
          c.check({
            ...rest,
            ...(estimated_cost_usd !== undefined ? { estimatedCostUsd: estimated_cost_usd } : {}),
          }),
        );
        const notes = verdictText(r.verdicts);
        const text = r.allowed
          ? `ALLOWED: continue (mode ${r.mode}).${notes ? ` ${notes}` : ''}`
          : `STOP: do not continue (mode ${r.mode}). ${notes || 'A human paused this agent.'} Tell the user instead of retrying.`;
        return ok(text, { allowed: r.allowed, mode: r.mode, verdicts: r.verdicts });
      } catch (error) {
        return fail(`${failure(error)} Treat this as not allowed.`);
      }
    },
  );

  server.registerTool(
    'end_session',
    {
      title: 'End the session',
      description:
        'Call once when your task is finished (or abandoned). Gatehouse closes the session and returns the summary the human reads.',
      inputSchema: {
        status: z
          .enum(['completed', 'failed', 'aborted'])
          .optional()
          .describe('How the task ended (default completed).'),
      },
      outputSchema: {
        session_id: z.string(),
        done: z.array(z.string()),
        needs_review: z.array(z.string()),
        cost_usd: z.number(),
        text: z.string(),
      },
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (a) => {
      try {
        const { summary } = await link.call((c) => c.end(a.status ?? 'completed'));
        // A later tool call reconnects with the same sessionKey and resumes the session.
        link.drop();
        return ok(summary.text, {
          session_id: summary.sessionId,
          done: summary.done,
          needs_review: summary.needsReview,
          cost_usd: summary.costUsd,
          text: summary.text,
        });
      } catch (error) {
        return fail(failure(error));
      }
    },
  );
}
