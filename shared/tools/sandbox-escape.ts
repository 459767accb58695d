import type { ToolInput, ToolMapping } from './tool-mapping';

/**
 * Leaving the agent's OS sandbox. Claude Code's Bash input takes `dangerouslyDisableSandbox:
 * true`; with `allowUnsandboxedCommands` at its default such a call goes through the normal
 * permission flow, which is Gatehouse's hook. The agent must not get that by itself: a call
 * whose input asks for it gets this action first, which only a person lets through (their
 * approval of that one request, or a rule of theirs for that exact command; see
 * main/engine/policy/sandbox-escape.ts).
 */
export const LEAVE_SANDBOX = 'leave_sandbox';

/** Claude Code's Bash input field that runs the command outside its sandbox. */
export const CLAUDE_SANDBOX_FLAG = 'dangerouslyDisableSandbox';

/**
 * True when the input asks to leave the sandbox: anything but an absent or `false` flag
 * counts (a string "true" too), since the agent, not Gatehouse, decides how it is read.
 */
export const asksToLeaveSandbox = (input: ToolInput): boolean =>
  Object.hasOwn(input, CLAUDE_SANDBOX_FLAG) &&
  input[CLAUDE_SANDBOX_FLAG] !== false &&
  input[CLAUDE_SANDBOX_FLAG] !== undefined;

/** The mapping with the sandbox question put first, when the input asks to leave it. */
export function withSandboxEscape(mapping: ToolMapping, input: ToolInput): ToolMapping {
  if (mapping.kind !== 'gate' || !asksToLeaveSandbox(input)) return mapping;
  const target = mapping.command ?? mapping.description;
  return {
    ...mapping,
    candidates: [{ action: LEAVE_SANDBOX, target: target.slice(0, 4096) }, ...mapping.candidates],
    description: `Outside Claude Code's sandbox: ${mapping.description}`.slice(0, 500),
  };
}

/** Claude Code's Bash input field that leaves the command running after the call. */
export const CLAUDE_BACKGROUND_FLAG = 'run_in_background';

/** True for a field the agent reads as "yes": anything but absent or `false`. */
const set = (v: unknown): boolean => v !== undefined && v !== false;

/**
 * Whether a shell tool's input asks to leave its process running after the call, per agent:
 * Claude Code's `run_in_background`, Gemini CLI's `is_background`, Copilot CLI's `detach`
 * or a `mode` other than `sync` (an async shell it types into later).
 */
export const BACKGROUND_FIELDS: Record<string, (input: ToolInput) => boolean> = {
  claude: (input) => set(input[CLAUDE_BACKGROUND_FLAG]),
  gemini: (input) => set(input.is_background),
  copilot: (input) => set(input.detach) || (input.mode !== undefined && input.mode !== 'sync'),
};

/**
 * A shell input that asks to run in the background, as the shell form it stands for:
 * `{ command\n} &` (the line break ends a trailing comment, which would hide a bare `&`). A
 * process left running is not proven harmless, so the person decides
 * (shared/tools/shell-analysis.ts, `background`).
 */
export function asShellBackground(
  input: ToolInput,
  asks: (input: ToolInput) => boolean = BACKGROUND_FIELDS.claude!,
): ToolInput {
  const command = input.command;
  if (!asks(input) || typeof command !== 'string') return input;
  return { ...input, command: `{ ${command}\n} &` };
}
