import { runHook } from '../adapter/relay';
import { claudeCodeAdapter } from './adapter';

/** `gatehouse hook claude-code`: the relay with Claude Code's adapter (see adapter/types.ts). */
export const runClaudeCodeHook = (
  stdin: NodeJS.ReadableStream = process.stdin,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> => runHook(claudeCodeAdapter, stdin, env);
