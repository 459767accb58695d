import { CLAUDE_SANDBOX_FLAG, asksToLeaveSandbox } from '../../../tools/sandbox-escape';

/** Claude Code's tools whose commands its sandbox runs (`dangerouslyDisableSandbox` is Bash's). */
const SANDBOXED_TOOLS = new Set(['Bash']);

/**
 * The Bash input Claude Code runs for an allowed call (the hook answer's `updatedInput`).
 * A call a person allowed leaves Claude Code's sandbox, so an approved `git push` reaches its
 * remote; every other allowed call stays in it, and a `dangerouslyDisableSandbox` the agent
 * set itself is taken out (Gatehouse asks about such a call, so this is the second line).
 * Undefined when the input runs as it is.
 */
export function claudeSandboxInput(
  tool: string,
  input: Record<string, unknown>,
  outside: boolean,
): Record<string, unknown> | undefined {
  if (outside && SANDBOXED_TOOLS.has(tool)) return { ...input, [CLAUDE_SANDBOX_FLAG]: true };
  if (!asksToLeaveSandbox(input)) return undefined;
  const { [CLAUDE_SANDBOX_FLAG]: _dropped, ...kept } = input;
  return kept;
}
