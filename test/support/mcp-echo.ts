import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { RequestRecord } from '../../shared/domain';
import {
  type AgentRun,
  type AgentStage,
  type ModelServer,
  openAgentStage,
  closeAgentStage,
  pendingWhileRunning,
} from './agent-e2e';
import { ROOT } from './daemon';

/**
 * The tiny stdio MCP server of the agent tests (test/fixtures/mcp/echo-server.mjs, one tool
 * `echo_text`), as an agent's config starts it, and what it was called with: each call
 * appends its text to `log`, so a test sees whether a call really ran.
 */
export class EchoMcpServer {
  readonly command = process.execPath;
  readonly args = [join(ROOT, 'test', 'fixtures', 'mcp', 'echo-server.mjs')];
  readonly env: Record<string, string>;

  constructor(readonly log: string) {
    this.env = { ECHO_MCP_LOG: log };
  }

  /** The texts `echo_text` was called with, in order. */
  calls(): string[] {
    return existsSync(this.log) ? readFileSync(this.log, 'utf8').split('\n').filter(Boolean) : [];
  }
}

/** What every agent's MCP test stands on: the agent stage and the echo server. */
export interface McpAgentStage<M extends ModelServer> extends AgentStage<M> {
  echo: EchoMcpServer;
}

/** Starts an {@link McpAgentStage}: the echo server logs into the project's temporary folder. */
export async function startMcpAgentStage<M extends ModelServer>(
  startModel: () => Promise<M>,
): Promise<McpAgentStage<M>> {
  const s = await openAgentStage(startModel);
  return { ...s, echo: new EchoMcpServer(join(s.p.dir, 'echo-mcp.log')) };
}

/** Undoes {@link startMcpAgentStage}, whatever of it was set up. */
export const stopMcpAgentStage = closeAgentStage;

/**
 * What a person does with an agent's MCP call to `echo_text` with `text`: waits until it is
 * pending in Gatehouse as `action` (the tool has not run yet), decides it, and returns the
 * agent's run once it has ended, with the tool run (approve) or not (deny).
 */
export async function decideMcpCall(
  admin: AdminClient,
  echo: EchoMcpServer,
  running: Promise<AgentRun>,
  action: string,
  text: string,
  decision: 'approve' | 'deny',
  reason?: string,
): Promise<{ run: AgentRun; pending: RequestRecord }> {
  const pending = await pendingWhileRunning(admin, running, action);
  expect(echo.calls()).not.toContain(text);
  await admin.call('decide', {
    requestId: pending.requestId,
    decision,
    ...(reason ? { reason } : {}),
  });
  const run = await running;
  expect(echo.calls().includes(text), run.stderr.slice(-2000)).toBe(decision === 'approve');
  return { run, pending };
}

/**
 * With a user rule putting `action` at auto, the agent's call to `echo_text` with `text` runs
 * without a person: the rule matched the action the call reached Gatehouse as. The rule is
 * removed afterwards, whatever happens.
 */
export async function runsUnderAutoRule(
  admin: AdminClient,
  echo: EchoMcpServer,
  action: string,
  text: string,
  start: () => Promise<AgentRun>,
): Promise<AgentRun> {
  const { rule } = await admin.call('rules.add', { action, tier: 'auto' });
  try {
    const run = await start();
    expect(run.code, run.stderr).toBe(0);
    expect(echo.calls()).toContain(text);
    expect((await admin.call('pending.list', {})).requests).toEqual([]);
    return run;
  } finally {
    await admin.call('rules.remove', { ruleId: rule.ruleId });
  }
}
