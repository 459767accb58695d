import { spawnSync } from 'node:child_process';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { RequestRecord } from '../../shared/domain';
import { runCli, type CliResult } from './daemon';
import { waitForPending } from './events';

/** What `gatehouse hook claude-code` answered a PreToolUse call. */
export interface PreToolAnswer extends CliResult {
  decision?: string | undefined;
  reason?: string | undefined;
}

/** A PreToolUse payload as Claude Code sends it. */
export function preToolUse(
  tool: string,
  input: Record<string, unknown>,
  o: { cwd: string; session?: string | undefined; id?: string },
): Record<string, unknown> {
  const session = o.session ?? 'cc-grants';
  return {
    session_id: session,
    transcript_path: `/tmp/nonexistent/${session}.jsonl`,
    cwd: o.cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: o.id ?? `toolu_${Math.random().toString(36).slice(2)}`,
  };
}

/** Runs the real hook process with the payload on stdin and reads its decision. */
export async function runClaudeHook(
  env: NodeJS.ProcessEnv,
  payload: Record<string, unknown>,
): Promise<PreToolAnswer> {
  const r = await runCli(env, ['hook', 'claude-code'], JSON.stringify(payload));
  const text = r.stdout.trim();
  if (!text) return r;
  const out = JSON.parse(text) as {
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  };
  return {
    ...r,
    decision: out.hookSpecificOutput?.permissionDecision,
    reason: out.hookSpecificOutput?.permissionDecisionReason,
  };
}

/** What became of a call made through {@link callDenyingAsks}. */
export interface DeniedOrPerformed {
  decision?: string | undefined;
  /** The request the call filed, when it asked (the person denied it). */
  asked?: RequestRecord;
  /** What performing the call printed, when the hook allowed it at once. */
  printed: string;
}

/**
 * A tool call through the real Claude Code hook, answered as a careful person would: a call
 * that asks (its request is the first pending one `asked` accepts) is denied; one the hook
 * allows at once is performed with `perform`, and what that printed is returned, so that a
 * test shows the damage an allowed call did.
 */
export async function callDenyingAsks(o: {
  env: NodeJS.ProcessEnv;
  admin: AdminClient;
  tool: string;
  input: Record<string, unknown>;
  cwd: string;
  session: string;
  asked: (r: RequestRecord) => boolean;
  perform?: () => string;
}): Promise<DeniedOrPerformed> {
  const hook = runClaudeHook(
    o.env,
    preToolUse(o.tool, o.input, { cwd: o.cwd, session: o.session }),
  );
  const first = await Promise.race([
    hook.then((answer) => ({ answer })),
    waitForPending(o.admin, o.asked).then((asked) => ({ asked })),
  ]);
  if ('answer' in first) {
    const printed = first.answer.decision === 'allow' && o.perform ? o.perform() : '';
    return { decision: first.answer.decision, printed };
  }
  await o.admin.call('decide', { requestId: first.asked.requestId, decision: 'deny' });
  return { decision: (await hook).decision, asked: first.asked, printed: '' };
}

/**
 * {@link callDenyingAsks} for Bash calls in `cwd`: the request is the one filed for the
 * command, and an allowed command is performed by bash there (what it printed, both streams).
 */
export const bashDenyingAsks =
  (o: { env: NodeJS.ProcessEnv; admin: AdminClient; cwd: string; session: string }) =>
  (command: string): Promise<DeniedOrPerformed> =>
    callDenyingAsks({
      ...o,
      tool: 'Bash',
      input: { command },
      asked: (r) => r.command === command,
      perform: () => {
        // With the agent's PATH, as the agent's shell would run it.
        const env = { ...process.env, PATH: o.env.PATH ?? process.env.PATH };
        const ran = spawnSync('bash', ['-c', command], { cwd: o.cwd, env, encoding: 'utf8' });
        return ran.stdout + ran.stderr;
      },
    });
