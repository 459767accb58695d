import { runCli, type CliResult } from './daemon';

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
