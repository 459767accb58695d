import type { AgentKind } from '../../../tools/agent-kinds';
import { DEFAULT_WAIT_MS } from './hook-config';

/**
 * How long a hook waits for a person by default, per agent: below the hook timeout the
 * installer writes (or, where the agent fixes it, below the agent's own). The adapters read
 * the same table, so install and hook agree.
 */
const WAIT_MS: Readonly<Record<AgentKind, number>> = {
  // Claude Code's default hook timeout is 60 s; the installer raises it with a longer wait.
  'claude-code': DEFAULT_WAIT_MS,
  // Codex takes the timeout from hooks.json: five minutes for a person to answer.
  codex: 300_000,
  // Gemini CLI's default hook timeout is 60 s.
  gemini: DEFAULT_WAIT_MS,
  // Copilot CLI's default hook timeout is 30 s: the wait stays within it.
  copilot: 25_000,
  opencode: 300_000,
  // Cursor documents no hook timeout field: the wait stays below a minute, like Claude Code's.
  cursor: DEFAULT_WAIT_MS,
};

export const defaultWaitMs = (agent: AgentKind): number => WAIT_MS[agent];
