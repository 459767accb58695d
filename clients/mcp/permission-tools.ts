import { createHash } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RequestAnswer } from '../sdk/client';
import type { GatehouseLink } from './gatehouse-link';
import { keepAlive, type ToolExtra } from './keep-alive';
import { fail, failure, ok, permissionData, permissionText } from './tool-results';
import { permissionOutput, requestIdInput, requestInput } from './tool-schemas';
import { withdrawOnAbort } from './withdraw';

/** How long request_permission waits for a human when the model does not say. */
export const DEFAULT_WAIT_SECONDS = 50;

export interface PermissionToolOptions {
  /** The longest one tool call waits for a person (below the client's tool-call limit). */
  maxWaitMs: number;
}

const seconds = (ms: number): number => Math.round(ms / 100) / 10;

/** `request_permission` and `get_decision`. */
export function registerPermissionTools(
  server: McpServer,
  link: GatehouseLink,
  o: PermissionToolOptions,
): void {
  const capSeconds = seconds(o.maxWaitMs);
  server.registerTool(
    'request_permission',
    {
      title: 'Ask a human for permission',
      description:
        'Ask the human supervising you for permission before any action that talks to another person, leaves your sandbox or cannot be undone (pushing code, opening pull requests, sending email or messages, installing packages, deleting files, deploying, spending money). ' +
        'Only act if the result says approved: true. If denied, do not do it. If queued or timed_out, do not do it yet: continue with other work and call get_decision later. ' +
        'Use check_action first if you are unsure whether an action needs permission.',
      inputSchema: {
        ...requestInput,
        wait_seconds: z
          .number()
          .int()
          .min(1)
          .max(24 * 3600)
          .optional()
          .describe(
            `How long to wait for a human when wait is true (default ${DEFAULT_WAIT_SECONDS}; at most ${capSeconds} in one call: after that the answer is queued and get_decision waits on).`,
          ),
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
      const spec = {
        action: a.action,
        ...(a.target ? { target: a.target } : {}),
        ...(a.command ? { command: a.command } : {}),
        paths: a.paths,
      };
      const waitMs = Math.min((a.wait_seconds ?? DEFAULT_WAIT_SECONDS) * 1000, o.maxWaitMs);
      const notApproved = (error: unknown) => {
        const reason = failure(error);
        return fail(`NOT APPROVED: ${reason} Do not ${a.action}.`, {
          approved: false,
          status: 'denied',
          action: a.action,
          decided_by: 'system',
          reason,
          error: reason,
        });
      };
      let filed: RequestAnswer;
      try {
        // Filed without waiting, so the request's id is known while the call waits: a
        // cancelled tool call withdraws exactly it.
        filed = await link.request({
          ...spec,
          description: a.description,
          ...(a.rationale ? { rationale: a.rationale } : {}),
          urgency: a.urgency,
          wait: false,
          // The same question asked again while it is still open is the same request.
          dedupeKey: `mcp:${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 32)}`,
        });
      } catch (error) {
        return notApproved(error);
      }
      // The SDK fails closed without a request id when Gatehouse could not answer.
      if (!filed.requestId && filed.status === 'denied') {
        const reason = filed.reason ?? 'Gatehouse could not answer';
        return fail(`NOT APPROVED: ${reason}. Do not ${a.action}.`, {
          ...permissionData(a.action, filed),
          error: reason,
        });
      }
      if (!a.wait || filed.status !== 'queued')
        return ok(permissionText(a.action, filed, 0), permissionData(a.action, filed));
      const requestId = filed.requestId;
      const stopWatching = withdrawOnAbort(extra.signal, () =>
        link.call((c) => c.cancel(requestId)),
      );
      const stopProgress = keepAlive(
        extra as ToolExtra,
        `waiting for a human to decide on ${a.action}`,
      );
      try {
        const answer = await link.call((c) => c.await({ requestId, timeoutMs: waitMs }));
        if (answer.status !== 'pending')
          return ok(
            permissionText(a.action, answer, seconds(waitMs)),
            permissionData(a.action, answer),
          );
        // Nobody decided within this call: the request stays open, get_decision waits on.
        const queued = { ...answer, status: 'queued' as const };
        return ok(
          `NO DECISION YET: nobody decided on ${a.action} (request ${requestId}) within ${seconds(waitMs)} s. Do NOT do it now. The request stays in the review queue: continue with other work, then call get_decision with request_id ${requestId} (it can wait up to ${capSeconds} s per call).`,
          permissionData(a.action, queued),
        );
      } catch (error) {
        return notApproved(error);
      } finally {
        stopProgress();
        stopWatching();
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
        request_id: requestIdInput,
        wait_seconds: z
          .number()
          .int()
          .min(0)
          .max(24 * 3600)
          .optional()
          .describe(
            `How long to wait for a decision (default 0: just look; at most ${capSeconds} in one call).`,
          ),
      },
      outputSchema: permissionOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a, extra) => {
      const waitMs = Math.min((a.wait_seconds ?? 0) * 1000, o.maxWaitMs);
      const stop =
        waitMs > 0
          ? keepAlive(extra as ToolExtra, `waiting for a decision on ${a.request_id}`)
          : () => {};
      const action = 'the requested action';
      try {
        const answer = await link.call((c) =>
          c.await({ requestId: a.request_id, timeoutMs: waitMs }),
        );
        return ok(
          permissionText(action, answer, seconds(waitMs)).replace(
            `NO DECISION YET`,
            'STILL WAITING',
          ),
          permissionData(action, answer),
        );
      } catch (error) {
        const reason = failure(error);
        return fail(`NOT APPROVED: ${reason}`, {
          approved: false,
          status: 'denied',
          action: 'unknown',
          request_id: a.request_id,
          decided_by: 'system',
          reason,
          error: reason,
        });
      } finally {
        stop();
      }
    },
  );
}
