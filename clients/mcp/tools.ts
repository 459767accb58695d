import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GatehouseLink } from './gatehouse-link';
import { registerPermissionPromptTool } from './permission-prompt';
import { registerPermissionTools } from './permission-tools';
import { fail, failure, ok, verdictText } from './tool-results';
import {
  checkInput,
  checkOutput,
  classifyInput,
  classifyOutput,
  endInput,
  endOutput,
  logInput,
  logOutput,
  usageInput,
  usageOutput,
} from './tool-schemas';

export interface ToolOptions {
  /** The project the MCP server serves: the cwd of Claude Code's permission prompts. */
  project?: string;
  /** The longest one tool call waits for a person (wait-cap.ts). */
  maxWaitMs: number;
  /** The server's environment (the agent's, which started it). */
  env: NodeJS.ProcessEnv;
}

/**
 * Registers Gatehouse's tools on an MCP server; every call goes through `link`. An error
 * result carries structured content of the tool's declared shape that says "no" (not
 * approved, not allowed, not recorded) with the `error`.
 */
export function registerGatehouseTools(
  server: McpServer,
  link: GatehouseLink,
  o: ToolOptions,
): void {
  registerPermissionTools(server, link, o);
  registerPermissionPromptTool(server, link, o);

  server.registerTool(
    'check_action',
    {
      title: 'Does this action need permission?',
      description:
        "Ask whether an action is auto-allowed or needs a human's permission, without doing anything. If needs_permission is true, call request_permission before doing it; if false, go ahead.",
      inputSchema: classifyInput,
      outputSchema: classifyOutput,
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
          risk: r.risk,
        };
        return ok(
          r.tier === 'auto'
            ? `${a.action} is auto-allowed (${r.rule}: ${r.reason}); go ahead.`
            : `${a.action} needs permission (${r.rule}: ${r.reason}); call request_permission before doing it.`,
          data,
        );
      } catch (error) {
        const reason = failure(error);
        return fail(`${reason} Treat ${a.action} as needing permission.`, {
          action: a.action,
          tier: 'ask',
          needs_permission: true,
          rule: 'gatehouse:unreachable',
          reason,
          error: reason,
        });
      }
    },
  );

  server.registerTool(
    'report_usage',
    {
      title: 'Report model usage and cost',
      description:
        'Report the tokens (and cost, if you know it) of a model call, so Gatehouse can keep budgets. If the result mentions a tripped budget, stop and tell the user.',
      inputSchema: usageInput,
      outputSchema: usageOutput,
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async (a) => {
      try {
        const r = await link.call((c) =>
          c.usage({
            model: a.model,
            inputTokens: a.input_tokens,
            outputTokens: a.output_tokens,
            costUsd: a.cost_usd,
            ...(a.phase ? { phase: a.phase } : {}),
            ...(a.operation ? { operation: a.operation } : {}),
          }),
        );
        const notes = verdictText(r.verdicts);
        return ok(
          `Recorded $${r.costUsd.toFixed(4)} (session $${r.spent.session.toFixed(4)}, today $${r.spent.day.toFixed(4)}).${notes ? ` ${notes}` : ''}`,
          {
            recorded: true,
            cost_usd: r.costUsd,
            spent_session_usd: r.spent.session,
            spent_day_usd: r.spent.day,
            verdicts: r.verdicts,
          },
        );
      } catch (error) {
        const reason = failure(error);
        return fail(reason, { recorded: false, error: reason });
      }
    },
  );

  server.registerTool(
    'log_action',
    {
      title: 'Record an action you took',
      description:
        'Record something you did (read files, ran tests, edited code) in the session transcript the human reviews. Call it after each meaningful step.',
      inputSchema: logInput,
      outputSchema: logOutput,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (a) => {
      try {
        await link.call((c) => c.log(a));
        return ok('Logged.', { ok: true });
      } catch (error) {
        const reason = failure(error);
        return fail(reason, { ok: false, error: reason });
      }
    },
  );

  server.registerTool(
    'check_budget',
    {
      title: 'May I continue?',
      description:
        'Call before each iteration of a loop or before a costly operation. If allowed is false, STOP: a breaker is open, a budget is spent, a provider is cooling down or a human paused you; tell the user why instead of continuing.',
      inputSchema: checkInput,
      outputSchema: checkOutput,
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async (a) => {
      try {
        const { estimated_cost_usd, ...rest } = a;
        const r = await link.call((c) =>
          c.check({
            ...rest,
            estimatedCostUsd: estimated_cost_usd,
          }),
        );
        const notes = verdictText(r.verdicts);
        const text = r.allowed
          ? `ALLOWED: continue (mode ${r.mode}).${notes ? ` ${notes}` : ''}`
          : `STOP: do not continue (mode ${r.mode}). ${notes || 'A human paused this agent.'} Tell the user instead of retrying.`;
        return ok(text, {
          allowed: r.allowed,
          mode: r.mode,
          verdicts: r.verdicts,
          restrictions: r.restrictions,
        });
      } catch (error) {
        const reason = failure(error);
        return fail(`${reason} Treat this as not allowed.`, {
          allowed: false,
          mode: 'normal',
          verdicts: [],
          error: reason,
        });
      }
    },
  );

  server.registerTool(
    'end_session',
    {
      title: 'End the session',
      description:
        'Call once when your task is finished (or abandoned). Gatehouse closes the session and returns the summary the human reads.',
      inputSchema: endInput,
      outputSchema: endOutput,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (a) => {
      try {
        const { summary } = await link.call((c) => c.end(a.status ?? 'completed'));
        // A later tool call reconnects with the same sessionKey and resumes the session.
        link.drop();
        return ok(summary.text, {
          ended: true,
          session_id: summary.sessionId,
          done: summary.done,
          needs_review: summary.needsReview,
          cost_usd: summary.costUsd,
          text: summary.text,
        });
      } catch (error) {
        const reason = failure(error);
        return fail(reason, { ended: false, error: reason });
      }
    },
  );
}
