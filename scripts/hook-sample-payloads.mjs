// One auto-allowed call (a read inside the project `root`) in each agent's own hook payload
// format, numbered by `i` (each call its own tool-use id). Used by bench/hook-latency, which
// times every hook on them, and by the build (scripts/relay-image.mjs), which runs the relay
// on them to record the code it compiles. A new adapter needs a sample here.
import { join } from 'node:path';

export function samplePayloads(root) {
  const readme = join(root, 'README.md');
  return {
    'claude-code': (i) => ({
      session_id: 'sample-claude',
      transcript_path: '/tmp/sample.jsonl',
      cwd: root,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: readme },
      tool_use_id: `toolu_sample_${i}`,
    }),
    codex: (i) => ({
      session_id: 'sample-codex',
      turn_id: `turn-${i}`,
      cwd: root,
      hook_event_name: 'PreToolUse',
      model: 'gpt-5',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'git status' },
      tool_use_id: `call_sample_${i}`,
    }),
    cursor: (i) => ({
      conversation_id: 'sample-cursor',
      generation_id: `gen-${i}`,
      hook_event_name: 'beforeShellExecution',
      workspace_roots: [root],
      command: 'git status',
      cwd: root,
    }),
    gemini: () => ({
      session_id: 'sample-gemini',
      transcript_path: '/tmp/sample.json',
      cwd: root,
      hook_event_name: 'BeforeTool',
      timestamp: new Date().toISOString(),
      tool_name: 'read_file',
      tool_input: { file_path: readme },
    }),
    copilot: () => ({
      sessionId: 'sample-copilot',
      timestamp: Date.now(),
      cwd: root,
      toolName: 'view',
      toolArgs: { path: readme },
    }),
    opencode: (i) => ({
      event: 'tool.execute.before',
      tool: 'read',
      sessionID: 'sample-opencode',
      callID: `call-${i}`,
      args: { filePath: readme },
      directory: root,
    }),
  };
}
