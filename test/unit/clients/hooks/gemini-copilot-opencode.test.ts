import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { agentToolAction } from '../../../../shared/tools/agent-tools';
import {
  geminiAnswer,
  geminiEvent,
  geminiNoteAnswer,
} from '../../../../shared/node/hooks/gemini/adapter';
import { geminiInstaller } from '../../../../clients/hooks/gemini/installer';
import { copilotAnswer, copilotEvent } from '../../../../shared/node/hooks/copilot/adapter';
import { mergeCopilotHooks } from '../../../../clients/hooks/copilot/installer';
import {
  opencodeAdapter,
  opencodeAnswer,
  opencodeEvent,
} from '../../../../shared/node/hooks/opencode/adapter';
import { opencodeInstaller } from '../../../../clients/hooks/opencode/installer';
import { opencodePluginSource } from '../../../../clients/hooks/opencode/plugin-source';
import {
  permissionAskedOf,
  sseData,
  toolCallOf,
} from '../../../../clients/hooks/opencode/bridge-events';
import { HOOK_ADAPTERS } from '../../../../shared/node/hooks/adapters';
import { HOOK_INSTALLERS } from '../../../../clients/hooks/installers';

const parser = await loadBashParser();
const push = { candidates: [{ action: 'git_push', target: 'origin main' }] };

describe('the Gemini CLI, Copilot CLI and OpenCode tool tables (checked against the pinned CLIs)', () => {
  it('Gemini CLI: shell, files, search, web fetch by the URL in its prompt, MCP, internal tools', () => {
    const g = (tool: string, input: Record<string, unknown>) =>
      agentToolAction('gemini', tool, input, parser);
    expect(g('run_shell_command', { command: 'git push origin main' })).toMatchObject(push);
    expect(g('read_file', { file_path: '/p/a.ts' })).toMatchObject({
      candidates: [{ action: 'read_file', paths: ['/p/a.ts'] }],
    });
    // read_many_files reads every path or glob in `include` (its declaration in 0.61.0).
    expect(
      g('read_many_files', { include: ['src/**/*.ts', '~/.local/share/gatehouse/admin.token'] }),
    ).toMatchObject({
      candidates: [
        { action: 'read_file', paths: ['src/**/*.ts', '~/.local/share/gatehouse/admin.token'] },
      ],
    });
    expect(g('replace', { file_path: '/p/a.ts' })).toMatchObject({
      candidates: [{ action: 'edit_file' }],
    });
    expect(g('grep_search', { pattern: 'TODO', dir_path: '/p' })).toMatchObject({
      candidates: [{ action: 'search_files', target: 'TODO', paths: ['/p'] }],
    });
    expect(g('web_fetch', { prompt: 'Summarize https://example.com/a?b=1 please' })).toMatchObject({
      candidates: [{ action: 'web_fetch', target: 'https://example.com/a?b=1' }],
    });
    // The server comes from the payload's mcp_context; the name alone does not tell it.
    expect(
      agentToolAction('gemini', 'mcp_github_create_issue', {}, parser, {
        server: 'github',
        tool: 'create_issue',
      }),
    ).toMatchObject({ candidates: [{ action: 'mcp:github:create_issue' }] });
    expect(g('mcp_github_create_issue', {})).toMatchObject({
      candidates: [{ action: 'tool:mcp_github_create_issue' }],
    });
    for (const tool of ['update_topic', 'write_todos', 'invoke_agent', 'activate_skill'])
      expect(g(tool, {})).toEqual({ kind: 'internal' });
  });

  it('Copilot CLI: bash, write_bash, view/create/edit by path, grep and glob by their first path', () => {
    const c = (tool: string, input: Record<string, unknown>) =>
      agentToolAction('copilot', tool, input, parser);
    expect(c('bash', { command: 'git push origin main', description: 'ship' })).toMatchObject({
      ...push,
      description: 'ship: git push origin main',
    });
    expect(c('write_bash', { shellId: '1', input: 'git push origin main' })).toMatchObject(push);
    expect(c('create', { path: '/p/n.txt', file_text: 'x' })).toMatchObject({
      candidates: [{ action: 'write_file', paths: ['/p/n.txt'] }],
    });
    expect(c('grep', { pattern: 'x', paths: ['/p/src'] })).toMatchObject({
      candidates: [{ action: 'search_files', paths: ['/p/src'] }],
    });
    for (const tool of ['read_bash', 'sql', 'task', 'skill'])
      expect(c(tool, {})).toEqual({ kind: 'internal' });
  });

  it('OpenCode: bash, filePath tools, internal tools', () => {
    const o = (tool: string, input: Record<string, unknown>) =>
      agentToolAction('opencode', tool, input, parser);
    expect(o('bash', { command: 'git push origin main', workdir: '/p' })).toMatchObject(push);
    expect(o('edit', { filePath: '/p/a.ts', oldString: 'a', newString: 'b' })).toMatchObject({
      candidates: [{ action: 'edit_file', paths: ['/p/a.ts'] }],
    });
    for (const tool of ['todowrite', 'task', 'skill', 'question'])
      expect(o(tool, {})).toEqual({ kind: 'internal' });
  });

  it("the hook configurations of these agents are Gatehouse's own: changing them asks as policy", () => {
    const policy = { candidates: [{ action: 'change_gatehouse_policy' }] };
    for (const file of [
      '/p/.opencode/plugin/gatehouse.js',
      '/p/.opencode/plugins/other.js',
      '/home/u/.config/opencode/plugin/gatehouse.js',
      '/home/u/.copilot/settings.json',
      '/p/.github/copilot/settings.json',
      '/p/.github/hooks/gatehouse.json',
    ]) {
      expect(agentToolAction('opencode', 'write', { filePath: file }, parser)).toMatchObject(
        policy,
      );
      expect(agentToolAction('copilot', 'create', { path: file }, parser)).toMatchObject(policy);
      expect(
        agentToolAction('gemini', 'run_shell_command', { command: `rm -f ${file}` }, parser),
      ).toMatchObject(policy);
    }
  });

  it('the adapters and installers fill their slots', () => {
    for (const agent of ['gemini', 'copilot', 'opencode']) {
      expect(Object.keys(HOOK_ADAPTERS)).toContain(agent);
      expect(Object.keys(HOOK_INSTALLERS)).toContain(agent);
    }
  });
});

describe('the Gemini CLI adapter', () => {
  // Recorded from Gemini CLI 0.61.0's BeforeTool hook.
  const payload = {
    session_id: '7755f7e4-e834-4e20-b497-17cfbae8612c',
    transcript_path: '/h/.gemini/tmp/proj/chats/session.jsonl',
    cwd: '/tmp/proj',
    hook_event_name: 'BeforeTool',
    timestamp: '2026-11-23T15:23:03.270Z',
    tool_name: 'run_shell_command',
    tool_input: { command: 'echo hi' },
  };

  it('reads a BeforeTool payload as one tool call; other events are ignored, garbage is invalid', () => {
    expect(geminiEvent(JSON.stringify(payload))).toEqual({
      kind: 'tool',
      event: 'BeforeTool',
      sessionId: payload.session_id,
      tool: 'run_shell_command',
      input: { command: 'echo hi' },
      cwd: '/tmp/proj',
      transcriptPath: payload.transcript_path,
    });
    // Recorded from `gemini -p` 0.61.0 at its end: exit completes the session.
    expect(
      geminiEvent(JSON.stringify({ ...payload, hook_event_name: 'SessionEnd', reason: 'exit' })),
    ).toMatchObject({ kind: 'record', type: 'gemini.session_end', end: 'completed' });
    expect(
      geminiEvent(JSON.stringify({ ...payload, hook_event_name: 'SessionEnd', reason: 'clear' })),
    ).toMatchObject({ kind: 'record', end: 'aborted' });
    // AfterTool: the call that ran, for its approval note; one unreadable is let be.
    const after = { ...payload, hook_event_name: 'AfterTool', tool_response: { llmContent: 'hi' } };
    expect(geminiEvent(JSON.stringify(after))).toEqual({
      kind: 'result',
      event: 'AfterTool',
      sessionId: payload.session_id,
      tool: 'run_shell_command',
      input: { command: 'echo hi' },
      cwd: '/tmp/proj',
      transcriptPath: payload.transcript_path,
    });
    expect(geminiEvent('{"hook_event_name":"AfterTool"')).toEqual({
      kind: 'ignore',
      event: 'AfterTool',
    });
    expect(geminiEvent(JSON.stringify({ ...after, session_id: undefined }))).toEqual({
      kind: 'ignore',
      event: 'AfterTool',
    });
    expect(geminiEvent(JSON.stringify({ ...payload, hook_event_name: 'BeforeModel' }))).toEqual({
      kind: 'ignore',
      event: 'BeforeModel',
    });
    expect(geminiEvent('{"hook_event_name":"BeforeTool"')).toMatchObject({
      kind: 'invalid',
      event: 'BeforeTool',
    });
    expect(geminiEvent(JSON.stringify({ ...payload, session_id: undefined }))).toMatchObject({
      kind: 'invalid',
    });
  });

  it("answers AfterTool with a person's note as additionalContext", () => {
    expect(geminiNoteAnswer('AfterTool', 'approved: push once')).toEqual({
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'approved: push once' },
    });
  });

  it('answers decision allow|deny with the reason; a stop adds continue:false; ask denies; defer prints nothing', () => {
    expect(geminiAnswer('BeforeTool', { behavior: 'allow', reason: 'ok' })).toEqual({
      decision: 'allow',
      reason: 'ok',
    });
    expect(geminiAnswer('BeforeTool', { behavior: 'ask', reason: 'later' })).toEqual({
      decision: 'deny',
      reason: 'later',
    });
    expect(geminiAnswer('BeforeTool', { behavior: 'deny', reason: 'paused', stop: true })).toEqual({
      decision: 'deny',
      reason: 'paused',
      continue: false,
      stopReason: 'paused',
    });
    expect(geminiAnswer('BeforeTool', { behavior: 'defer', reason: 'x' })).toBeUndefined();
    // An edited call: the whole input Gemini CLI builds the tool's call from.
    expect(
      geminiAnswer('BeforeTool', {
        behavior: 'allow',
        reason: 'edited',
        updatedInput: { command: 'git push origin feature' },
      }),
    ).toEqual({
      decision: 'allow',
      reason: 'edited',
      hookSpecificOutput: {
        hookEventName: 'BeforeTool',
        tool_input: { command: 'git push origin feature' },
      },
    });
  });
});

describe('the Copilot CLI adapter', () => {
  // Recorded from Copilot CLI 1.0.102.
  const pre = {
    sessionId: 'a78eba02-75f8-4e68-8576-d9fec4ee6419',
    timestamp: 1795447484692,
    cwd: '/tmp/proj',
    toolName: 'bash',
    toolArgs: { command: 'echo hi', description: 'say hi' },
  };
  const perm = {
    hookName: 'permissionRequest',
    sessionId: pre.sessionId,
    timestamp: 1795447484724,
    cwd: '/tmp/proj',
    toolName: 'bash',
    toolInput: { command: 'echo hi' },
    permissionSuggestions: [],
  };

  it('reads preToolUse (no event name, toolArgs as object or JSON string) and permissionRequest', () => {
    const call = {
      kind: 'tool',
      event: 'preToolUse',
      sessionId: pre.sessionId,
      tool: 'bash',
      input: pre.toolArgs,
      cwd: '/tmp/proj',
    };
    expect(copilotEvent(JSON.stringify(pre))).toEqual(call);
    expect(
      copilotEvent(JSON.stringify({ ...pre, toolArgs: JSON.stringify(pre.toolArgs) })),
    ).toEqual(call);
    expect(copilotEvent(JSON.stringify(perm))).toMatchObject({
      event: 'permissionRequest',
      input: { command: 'echo hi' },
    });
    // Recorded from `copilot -p` 1.0.102 at its end (no event name either).
    expect(
      copilotEvent(JSON.stringify({ sessionId: 's', timestamp: 1, cwd: '/p', reason: 'complete' })),
    ).toMatchObject({ kind: 'record', type: 'copilot.session_end', end: 'completed' });
    expect(copilotEvent(JSON.stringify({ sessionId: 's', reason: 'error' }))).toMatchObject({
      end: 'aborted',
    });
    expect(copilotEvent(JSON.stringify({ hookName: 'sessionStart', sessionId: 's' }))).toEqual({
      kind: 'ignore',
      event: 'sessionStart',
    });
    expect(copilotEvent('not json')).toMatchObject({ kind: 'invalid' });
  });

  it('keeps free-text arguments (a patch) as input, and maps the tools some models get', async () => {
    const patch = '*** Begin Patch\n *** Add File: .git/hooks/pre-commit\n+x\n*** End Patch';
    const event = copilotEvent(
      JSON.stringify({ ...pre, toolName: 'apply_patch', toolArgs: patch }),
    );
    expect(event).toMatchObject({ tool: 'apply_patch', input: { input: patch } });
    const parser = await loadBashParser();
    expect(agentToolAction('copilot', 'apply_patch', { input: patch }, parser)).toMatchObject({
      candidates: [{ action: 'write_file', paths: ['.git/hooks/pre-commit'] }],
    });
    expect(
      agentToolAction('copilot', 'rg', { pattern: 'x', paths: ['a', '.env'] }, parser),
    ).toMatchObject({
      candidates: [{ action: 'search_files', paths: ['a', '.env'] }],
    });
    const editor = (command: string) =>
      agentToolAction('copilot', 'str_replace_editor', { command, path: 'a.ts' }, parser);
    expect(editor('view')).toMatchObject({
      candidates: [{ action: 'read_file', paths: ['a.ts'] }],
    });
    expect(editor('create')).toMatchObject({
      candidates: [{ action: 'write_file', paths: ['a.ts'] }],
    });
    expect(editor('insert')).toMatchObject({
      candidates: [{ action: 'edit_file', paths: ['a.ts'] }],
    });
  });

  it('answers permissionDecision on preToolUse and behavior on permissionRequest', () => {
    expect(copilotAnswer('preToolUse', { behavior: 'deny', reason: 'no' })).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no',
    });
    expect(copilotAnswer('preToolUse', { behavior: 'ask', reason: 'late' })).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'late',
    });
    expect(copilotAnswer('permissionRequest', { behavior: 'allow', reason: 'ok' })).toEqual({
      behavior: 'allow',
    });
    expect(
      copilotAnswer('permissionRequest', { behavior: 'deny', reason: 'stop', stop: true }),
    ).toEqual({ behavior: 'deny', message: 'stop' });
    expect(copilotAnswer('preToolUse', { behavior: 'defer', reason: 'x' })).toBeUndefined();
  });

  it("merges its entry first into its event, keeps others', and refuses a file of another version", () => {
    const other = { type: 'command', bash: './check.sh' };
    const { file } = mergeCopilotHooks(
      { version: 1, hooks: { preToolUse: [other], sessionEnd: [other] } },
      'preToolUse',
      'gatehouse hook copilot',
      30,
    );
    expect(file).toEqual({
      version: 1,
      hooks: {
        preToolUse: [{ type: 'command', bash: 'gatehouse hook copilot', timeoutSec: 30 }, other],
        sessionEnd: [other, { type: 'command', bash: 'gatehouse hook copilot', timeoutSec: 10 }],
      },
    });
    // Switching the gate event moves the entry; installing twice changes nothing.
    const moved = mergeCopilotHooks(file, 'permissionRequest', 'gatehouse hook copilot', 30);
    expect(moved.file.hooks).toMatchObject({ preToolUse: [other] });
    expect(
      mergeCopilotHooks(moved.file, 'permissionRequest', 'gatehouse hook copilot', 30).changed,
    ).toBe(false);
    expect(() => mergeCopilotHooks({ version: 2 }, 'preToolUse', 'x', 30)).toThrow(/version 2/);
  });
});

describe('the OpenCode adapter, plugin and bridge', () => {
  it("reads the plugin's payload; the cwd is the plugin's directory (a bash call's workdir stays in the call, judged by the daemon); the callID is the call's id", () => {
    const payload = {
      event: 'tool.execute.before',
      tool: 'bash',
      sessionID: 'ses_1',
      callID: 'call_1',
      args: { command: 'git push', workdir: '/p/sub' },
      directory: '/p',
    };
    expect(opencodeEvent(JSON.stringify(payload))).toEqual({
      kind: 'tool',
      event: 'tool.execute.before',
      sessionId: 'ses_1',
      tool: 'bash',
      input: payload.args,
      cwd: '/p',
      toolUseId: 'call_1',
    });
    expect(opencodeEvent(JSON.stringify({ ...payload, args: { command: 'ls' } }))).toMatchObject({
      cwd: '/p',
    });
    expect(opencodeEvent('{}')).toMatchObject({ kind: 'invalid' });
  });

  it('always answers (an empty answer means the relay failed and the plugin denies)', () => {
    expect(opencodeAnswer('tool.execute.before', { behavior: 'defer', reason: 'x' })).toEqual({
      decision: 'defer',
      reason: 'x',
    });
    expect(opencodeAnswer('tool.execute.before', { behavior: 'ask', reason: 'late' })).toEqual({
      decision: 'deny',
      reason: 'late',
    });
    expect(
      opencodeAnswer('tool.execute.before', { behavior: 'deny', reason: 'paused', stop: true }),
    ).toEqual({ decision: 'deny', reason: 'paused', stop: true });
  });

  it('passes an approved edit on as the args the plugin puts in place, and only with allow', () => {
    const edited = { command: 'git push origin feature' };
    expect(
      opencodeAnswer('tool.execute.before', {
        behavior: 'allow',
        reason: 'ok',
        updatedInput: edited,
      }),
    ).toEqual({ decision: 'allow', reason: 'ok', args: edited });
    expect(
      opencodeAnswer('tool.execute.before', {
        behavior: 'deny',
        reason: 'paused',
        stop: true,
        updatedInput: edited,
      }),
    ).toEqual({ decision: 'deny', reason: 'paused', stop: true });
    expect(
      opencodeAnswer('tool.execute.before', {
        behavior: 'defer',
        reason: 'x',
        updatedInput: edited,
      }),
    ).toEqual({ decision: 'defer', reason: 'x' });
    expect(opencodeAdapter.takesUpdatedInput?.('tool.execute.before')).toBe(true);
  });

  it('the plugin carries the command and a limit past the wait', () => {
    const source = opencodePluginSource('GATEHOUSE_SOCKET=/s node /g.js hook opencode', 60_000);
    expect(source).toContain('const COMMAND = "GATEHOUSE_SOCKET=/s node /g.js hook opencode";');
    expect(source).toContain('const LIMIT_MS = 75000;');
  });

  it('reads permission.asked events (recorded from opencode serve 1.18.33) as tool calls', () => {
    const data = JSON.stringify({
      id: 'evt_1',
      type: 'permission.asked',
      properties: {
        id: 'per_1',
        sessionID: 'ses_1',
        permission: 'bash',
        patterns: ['git push origin main'],
        metadata: { command: 'git push origin main' },
        always: ['git push *'],
        tool: { messageID: 'msg_1', callID: 'call_1' },
      },
    });
    const asked = permissionAskedOf(data)!;
    expect(asked).toMatchObject({ id: 'per_1', sessionID: 'ses_1', callID: 'call_1' });
    expect(toolCallOf(asked)).toEqual({ tool: 'bash', input: { command: 'git push origin main' } });
    expect(
      toolCallOf({ ...asked, permission: 'edit', metadata: {}, patterns: ['/p/a.ts'] }),
    ).toEqual({ tool: 'edit', input: { filePath: '/p/a.ts' } });
    expect(toolCallOf({ ...asked, permission: 'external_directory' }).tool).toBe(
      'external_directory',
    );
    expect(permissionAskedOf('{"type":"session.updated","properties":{}}')).toBeUndefined();
    expect(permissionAskedOf('not json')).toBeUndefined();
    expect(sseData('data: {"a":1}\n\ndata: {"b"')).toEqual({
      events: ['{"a":1}'],
      rest: 'data: {"b"',
    });
  });
});

describe('installers', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const request = (home: string, project?: string) => ({
    home,
    env: {},
    command: 'GATEHOUSE_HOOK_WAIT_MS=50000 node /opt/gatehouse/dist/cli/gatehouse.js hook gemini',
    waitMs: 50_000,
    ...(project ? { project } : {}),
  });

  it('Gemini CLI: merges into settings.json with the timeout in ms, and takes out exactly its entry', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-gemini-install-'));
    const path = join(dir, '.gemini', 'settings.json');
    mkdirSync(join(dir, '.gemini'));
    const theirs = { matcher: 'write_file', hooks: [{ type: 'command', command: './lint.sh' }] };
    writeFileSync(path, JSON.stringify({ theme: 'dark', hooks: { BeforeTool: [theirs] } }));
    const r = await geminiInstaller.install(request(dir));
    expect(r.timeoutSec).toBe(60);
    const written = JSON.parse(readFileSync(path, 'utf8')) as {
      hooks: { BeforeTool: unknown[]; AfterTool: unknown[] };
    };
    expect(written.hooks.BeforeTool).toEqual([
      theirs,
      {
        matcher: '*',
        hooks: [
          { type: 'command', command: request(dir).command, timeout: 60_000, name: 'gatehouse' },
        ],
      },
    ]);
    // AfterTool, for a person's approval note: short, it only asks for a note.
    expect(written.hooks.AfterTool).toEqual([
      {
        matcher: '*',
        hooks: [
          { type: 'command', command: request(dir).command, timeout: 10_000, name: 'gatehouse' },
        ],
      },
    ]);
    expect((await geminiInstaller.install(request(dir))).changed).toMatch(/already installed/);
    expect(geminiInstaller.uninstall({ home: dir, env: {} })).toMatch(/Removed 3/);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      theme: 'dark',
      hooks: { BeforeTool: [theirs] },
    });
  });

  it("OpenCode: never overwrites or removes a gatehouse.js that is not Gatehouse's", async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-opencode-install-'));
    const plugin = join(dir, '.opencode', 'plugin', 'gatehouse.js');
    await opencodeInstaller.install(request(dir, dir));
    expect(readFileSync(plugin, 'utf8')).toContain('hook gemini');
    expect(opencodeInstaller.uninstall({ home: dir, env: {}, project: dir })).toMatch(/Removed/);
    writeFileSync(plugin, 'export const Mine = async () => ({});\n');
    await expect(opencodeInstaller.install(request(dir, dir))).rejects.toThrow(/not Gatehouse's/);
    expect(opencodeInstaller.uninstall({ home: dir, env: {}, project: dir })).toMatch(
      /not touching it/,
    );
    expect(readFileSync(plugin, 'utf8')).toContain('Mine');
    // The user's plugin folder follows XDG_CONFIG_HOME.
    const r = await opencodeInstaller.install({
      ...request(dir),
      env: { XDG_CONFIG_HOME: join(dir, 'cfg') },
    });
    expect(r.changed).toContain(join(dir, 'cfg', 'opencode', 'plugin', 'gatehouse.js'));
  });
});
