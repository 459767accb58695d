import type { AgentKind } from '../../tools/agent-kinds';
import type { AgentAdapter } from './relay/types';

/**
 * The command hooks `gatehouse hook <agent>` serves: one adapter per agent, loaded only for
 * its own agent so the relay stays small. OpenCode's plugin runs the same relay.
 */
export const HOOK_ADAPTERS: Readonly<Partial<Record<AgentKind, () => Promise<AgentAdapter>>>> = {
  'claude-code': async () => (await import('./claude-code/adapter')).claudeCodeAdapter,
  codex: async () => (await import('./codex/adapter')).codexAdapter,
  cursor: async () => (await import('./cursor/adapter')).cursorAdapter,
  gemini: async () => (await import('./gemini/adapter')).geminiAdapter,
  copilot: async () => (await import('./copilot/adapter')).copilotAdapter,
  // OpenCode's plugin (opencode/plugin-source.ts) runs this relay for each tool call.
  opencode: async () => (await import('./opencode/adapter')).opencodeAdapter,
};
