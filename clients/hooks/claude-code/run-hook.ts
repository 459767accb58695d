import { runHook } from '../../../shared/node/hooks/relay/relay';
import { claudeCodeAdapter } from '../../../shared/node/hooks/claude-code/adapter';

/** `gatehouse hook claude-code`: the relay with Claude Code's adapter (see adapter/types.ts). */
export const runClaudeCodeHook = (env: NodeJS.ProcessEnv = process.env): Promise<void> =>
  runHook(claudeCodeAdapter, env);
