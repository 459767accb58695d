import { describe, expect, it } from 'vitest';
import { toolAction as mapTool } from '../../../../../shared/tools/claude-code-tools';
import { loadBashParser } from '../../../../../shared/node/bash-parser';
import { isInternalTool } from '../../../../../shared/tools/claude-code-internal';
import { answerFor } from '../../../../../shared/node/hooks/claude-code/answer';
import { parseHookPayload } from '../../../../../shared/node/hooks/claude-code/payload';
import { readHookConfig } from '../../../../../shared/node/hooks/relay/hook-config';

const parser = await loadBashParser();
const toolAction = (name: string, input: Record<string, unknown>) => mapTool(name, input, parser);

describe('toolAction', () => {
  it('maps file tools to file actions with their paths', () => {
    expect(toolAction('Write', { file_path: '/p/src/a.ts', content: 'x' })).toEqual({
      kind: 'gate',
      candidates: [{ action: 'write_file', paths: ['/p/src/a.ts'] }],
      description: 'Write /p/src/a.ts',
    });
    expect(
      toolAction('Edit', { file_path: '/p/b.ts', old_string: 'a', new_string: 'b' }),
    ).toMatchObject({ candidates: [{ action: 'edit_file', paths: ['/p/b.ts'] }] });
    expect(toolAction('MultiEdit', { file_path: '/p/c.ts', edits: [] })).toMatchObject({
      candidates: [{ action: 'edit_file', paths: ['/p/c.ts'] }],
    });
    expect(
      toolAction('NotebookEdit', { notebook_path: '/p/n.ipynb', new_source: '' }),
    ).toMatchObject({ candidates: [{ action: 'edit_file', paths: ['/p/n.ipynb'] }] });
    expect(toolAction('Read', { file_path: '/p/README.md' })).toMatchObject({
      candidates: [{ action: 'read_file', paths: ['/p/README.md'] }],
    });
  });

  it('maps searches and listings', () => {
    expect(toolAction('Grep', { pattern: 'TODO', path: 'src' })).toMatchObject({
      candidates: [{ action: 'search_files', paths: ['src'], target: 'TODO' }],
    });
    expect(toolAction('Glob', { pattern: '**/*.ts' })).toMatchObject({
      candidates: [{ action: 'list_files', target: '**/*.ts' }],
    });
    expect(toolAction('LS', { path: '/p' })).toMatchObject({
      candidates: [{ action: 'list_files', paths: ['/p'] }],
    });
  });

  it('maps the web tools to web_fetch with the URL or query', () => {
    expect(
      toolAction('WebFetch', { url: 'https://example.com', prompt: 'summarise' }),
    ).toMatchObject({ candidates: [{ action: 'web_fetch', target: 'https://example.com' }] });
    expect(toolAction('WebSearch', { query: 'vitest fake timers' })).toMatchObject({
      candidates: [{ action: 'web_fetch', target: 'search: vitest fake timers' }],
    });
  });

  it('maps Bash through the command parser and keeps the command', () => {
    const m = toolAction('Bash', { command: 'npm test && git push', description: 'Test and push' });
    expect(m).toMatchObject({
      kind: 'gate',
      command: 'npm test && git push',
      description: 'Test and push: npm test && git push',
    });
    expect(m.kind === 'gate' && m.candidates.map((c) => c.action)).toEqual([
      'git_push',
      'run_tests',
    ]);
  });

  it('names MCP tools mcp:<server>:<tool> and other tools tool:<Name>', () => {
    expect(toolAction('mcp__github__create_issue', { title: 'x' })).toMatchObject({
      candidates: [{ action: 'mcp:github:create_issue' }],
    });
    expect(toolAction('mcp__my_server__do__thing', {})).toMatchObject({
      candidates: [{ action: 'mcp:my_server:do__thing' }],
    });
    expect(toolAction('FancyNewTool', {})).toMatchObject({
      candidates: [{ action: 'tool:FancyNewTool' }],
    });
  });

  it("stays out of Claude Code's own bookkeeping tools (Claude Code 2.1.330's table)", () => {
    const internal = [
      'Agent',
      'TodoWrite',
      'ExitPlanMode',
      'EnterPlanMode',
      'AskUserQuestion',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'TaskOutput',
      'TaskStop',
      'ToolSearch',
      'LSP',
      'CronCreate',
      'CronDelete',
      'CronList',
      'ListAgents',
      'ScheduleWakeup',
      'WaitForMcpServers',
      'ExitWorktree',
      'PushNotification',
      'ReportFindings',
      'Skill',
      'ListMcpResourcesTool',
      'ReadMcpResourceTool',
      'ReadMcpResourceDirTool',
    ];
    for (const t of internal) expect(toolAction(t, {}), t).toEqual({ kind: 'internal' });
  });

  it("reads an MCP resource's file: URI as a read of that file; another resource stays internal", () => {
    const token = '/home/u/.local/share/gatehouse/admin.token';
    expect(
      toolAction('ReadMcpResourceTool', { server: 'fs', uri: `file://${token}` }),
    ).toMatchObject({ candidates: [{ action: 'read_file', paths: [token] }] });
    expect(
      toolAction('ReadMcpResourceTool', { server: 'fs', uri: 'file:///tmp/a%20b.txt' }),
    ).toMatchObject({ candidates: [{ action: 'read_file', paths: ['/tmp/a b.txt'] }] });
    expect(
      toolAction('ReadMcpResourceDirTool', { server: 'fs', uri: 'file:///home/u' }),
    ).toMatchObject({ candidates: [{ action: 'list_files', paths: ['/home/u'] }] });
    expect(toolAction('ReadMcpResourceTool', { server: 'db', uri: 'postgres://x/t' })).toEqual({
      kind: 'internal',
    });
    expect(isInternalTool('ReadMcpResourceTool', { uri: `file://${token}` })).toBe(false);
    expect(isInternalTool('ReadMcpResourceTool', { uri: 'notes://today' })).toBe(true);
    expect(isInternalTool('TodoWrite', { uri: 'file:///x' })).toBe(true);
  });

  it('asks about tools Claude Code no longer has, and about tools that act outside it', () => {
    // Legacy names (Task is Agent, KillShell/KillBash are TaskStop, …) never reach a hook
    // from Claude Code 2.1.3xx; if something sends them, they are unknown tools and ask.
    for (const t of ['Task', 'BashOutput', 'KillShell', 'KillBash', 'TodoRead', 'SlashCommand'])
      expect(toolAction(t, {}), t).toMatchObject({ candidates: [{ action: `tool:${t}` }] });
    for (const t of ['EnterWorktree', 'RemoteTrigger', 'SendMessage', 'Workflow'])
      expect(toolAction(t, {}), t).toMatchObject({ kind: 'gate' });
  });

  it('reads PowerShell and Monitor commands like Bash', () => {
    expect(toolAction('PowerShell', { command: 'git push origin main' })).toMatchObject({
      candidates: [{ action: 'git_push' }],
      command: 'git push origin main',
    });
    expect(
      toolAction('Monitor', {
        command: 'tail -f build.log | grep ERROR',
        description: 'build errors',
        timeout_ms: 1000,
      }),
    ).toMatchObject({ kind: 'gate', command: 'tail -f build.log | grep ERROR' });
    expect(
      toolAction('Monitor', { command: 'kubectl delete namespace prod', timeout_ms: 1 }),
    ).toMatchObject({ candidates: [{ action: 'deploy' }] });
    expect(
      toolAction('Monitor', { ws: { url: 'wss://example.com/feed' }, description: 'feed' }),
    ).toMatchObject({ candidates: [{ action: 'web_fetch', target: 'wss://example.com/feed' }] });
  });
});

describe('answerFor', () => {
  it("writes PreToolUse's permissionDecision", () => {
    expect(answerFor('PreToolUse', { behavior: 'deny', reason: 'no' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no',
      },
    });
  });

  it("writes PermissionRequest's decision.behavior, and nothing for ask", () => {
    expect(answerFor('PermissionRequest', { behavior: 'allow', reason: 'ok' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    expect(answerFor('PermissionRequest', { behavior: 'deny', reason: 'not today' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not today' },
      },
    });
    expect(answerFor('PermissionRequest', { behavior: 'ask', reason: 'x' })).toBeUndefined();
    expect(answerFor('PreToolUse', { behavior: 'defer', reason: 'x' })).toBeUndefined();
    expect(answerFor('Stop', { behavior: 'allow', reason: 'x' })).toBeUndefined();
  });
});

describe('answerFor with stop', () => {
  it('adds continue: false and stopReason beside the deny', () => {
    expect(answerFor('PreToolUse', { behavior: 'deny', reason: 'paused', stop: true })).toEqual({
      continue: false,
      stopReason: 'paused',
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'paused',
      },
    });
  });
});

describe('parseHookPayload', () => {
  it('accepts a real PreToolUse payload', () => {
    const r = parseHookPayload(
      JSON.stringify({
        session_id: 's',
        transcript_path: '/t',
        cwd: '/p',
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path: '/p/a' },
        tool_use_id: 'toolu_1',
      }),
    );
    expect(r.ok).toBe(true);
  });

  it('says what is wrong and keeps the event name when it can', () => {
    expect(parseHookPayload('{nope')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not JSON/),
    });
    expect(parseHookPayload('[1]')).toMatchObject({
      ok: false,
      error: 'the hook payload is not a JSON object',
    });
    expect(parseHookPayload('{"hook_event_name":"PreToolUse","tool_name":"Read"}')).toEqual({
      ok: false,
      error: 'session_id is missing',
      event: 'PreToolUse',
    });
    expect(
      parseHookPayload('{"session_id":"s","hook_event_name":"PermissionRequest"}'),
    ).toMatchObject({ ok: false, event: 'PermissionRequest' });
    expect(
      parseHookPayload(
        '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":"x"}',
      ),
    ).toMatchObject({ ok: false, error: 'tool_input must be an object' });
  });
});

describe('readHookConfig', () => {
  it('has defaults below the 60 s hook timeout', () => {
    expect(readHookConfig({})).toEqual({
      agent: 'claude-code',
      waitMs: 50_000,
      fallback: 'builtin',
      warnings: [],
      secretVariables: [],
    });
  });

  it('reads the environment and warns about bad values instead of failing', () => {
    expect(
      readHookConfig({
        GATEHOUSE_HOOK_WAIT_MS: '1500',
        GATEHOUSE_HOOK_FALLBACK: 'DENY',
        GATEHOUSE_HOOK_AGENT: 'cc',
      }),
    ).toMatchObject({ agent: 'cc', waitMs: 1500, fallback: 'deny', warnings: [] });
    expect(readHookConfig({ GATEHOUSE_HUB_TOKEN: 't', HOME: '/h' }).secretVariables).toEqual([
      'GATEHOUSE_HUB_TOKEN',
    ]);
    const bad = readHookConfig({
      GATEHOUSE_HOOK_WAIT_MS: 'soon',
      GATEHOUSE_HOOK_FALLBACK: 'maybe',
    });
    expect(bad).toMatchObject({ waitMs: 50_000, fallback: 'builtin' });
    expect(bad.warnings).toHaveLength(2);
  });
});
