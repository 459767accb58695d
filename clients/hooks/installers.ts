import type { AgentKind } from '../../shared/tools/agent-kinds';
import type { HookInstaller } from './install/installer';

/**
 * `gatehouse hook <agent> --install|--uninstall`: one installer per agent, loaded only when
 * used. A missing slot makes the command say the agent's installer is not there yet.
 */
export const HOOK_INSTALLERS: Readonly<Partial<Record<AgentKind, () => Promise<HookInstaller>>>> = {
  'claude-code': async () => (await import('./claude-code/installer')).claudeCodeInstaller,
  codex: async () => (await import('./codex/installer')).codexInstaller,
  cursor: async () => (await import('./cursor/installer')).cursorInstaller,
  gemini: async () => (await import('./gemini/installer')).geminiInstaller,
  copilot: async () => (await import('./copilot/installer')).copilotInstaller,
  opencode: async () => (await import('./opencode/installer')).opencodeInstaller,
};
