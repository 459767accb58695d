import { runHook } from '../adapter/relay';
import { claudeCodeAdapter } from './adapter';

/** `gatehouse hook claude-code`: the relay with Claude Code's adapter (see adapter/types.ts). */
export const runClaudeCodeHook = (env: NodeJS.ProcessEnv = process.env): Promise<void> =>
  runHook(claudeCodeAdapter, env);
