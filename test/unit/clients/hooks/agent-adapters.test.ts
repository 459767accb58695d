import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { agentToolAction, AGENT_KINDS } from '../../../../shared/tools/agent-tools';
import { patchActions } from '../../../../shared/tools/patch-envelope';
import { codexAnswer, codexEvent } from '../../../../shared/node/hooks/codex/adapter';
import { codexInstaller } from '../../../../clients/hooks/codex/installer';
import { cursorAnswer, cursorEvent } from '../../../../shared/node/hooks/cursor/adapter';
import { mergeCursorHooks, removeCursorHooks } from '../../../../clients/hooks/cursor/installer';
import { gatehouseEnvPrefix } from '../../../../clients/hooks/install/hook-command';
import {
  isGatehouseHookCommandFor,
  mergeHookGroups,
  removeHookGroups,
} from '../../../../clients/hooks/install/hook-groups';
import { HOOK_INSTALLERS } from '../../../../clients/hooks/installers';
import { HOOK_ADAPTERS } from '../../../../shared/node/hooks/adapters';

const parser = await loadBashParser();

describe('the per-agent tool tables', () => {
  it('Codex: Bash and exec_command go through the shell parser, apply_patch to file actions, mcp__ to MCP', () => {
    expect(
      agentToolAction('codex', 'Bash', { command: 'git push origin main' }, parser),
    ).toMatchObject({
      candidates: [{ action: 'git_push', target: 'origin main' }],
      command: 'git push origin main',
    });
    expect(
      agentToolAction(
        'codex',
        'exec_command',
        { cmd: 'git push', justification: 'Ship it' },
        parser,
      ),
    ).toMatchObject({ description: 'Ship it: git push' });
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/a.ts',
      '@@',
      '-a',
      '+b',
      '*** Delete File: old.txt',
      '*** Add File: .gatehouse.toml',
      '+[rules]',
      '*** End Patch',
    ].join('\n');
    expect(patchActions(patch)).toEqual([
      { action: 'change_gatehouse_policy', paths: ['.gatehouse.toml'] },
      { action: 'delete_files', paths: ['old.txt'] },
      { action: 'edit_file', paths: ['src/a.ts'] },
    ]);
    expect(agentToolAction('codex', 'apply_patch', { command: patch }, parser)).toMatchObject({
      kind: 'gate',
      description: 'Apply a patch to .gatehouse.toml, old.txt, src/a.ts',
    });
    expect(
      agentToolAction('codex', 'mcp__github__create_issue', { title: 't' }, parser),
    ).toMatchObject({
      candidates: [{ action: 'mcp:github:create_issue' }],
    });
    expect(agentToolAction('codex', 'web_search', {}, parser)).toMatchObject({
      candidates: [{ action: 'tool:web_search' }],
    });
  });

  it('Cursor: Shell, Read, MCP:server:tool and its edit tools', () => {
    expect(agentToolAction('cursor', 'Shell', { command: 'rm -rf build' }, parser)).toMatchObject({
      candidates: [{ action: 'delete_files' }],
    });
    expect(agentToolAction('cursor', 'Read', { file_path: '/p/a' }, parser)).toMatchObject({
      candidates: [{ action: 'read_file', paths: ['/p/a'] }],
    });
    expect(agentToolAction('cursor', 'MCP:db:query', { q: 1 }, parser)).toMatchObject({
      candidates: [{ action: 'mcp:db:query' }],
    });
    expect(agentToolAction('cursor', 'StrReplace', { path: '/p/b' }, parser)).toMatchObject({
      candidates: [{ action: 'edit_file', paths: ['/p/b'] }],
    });
  });

  it("an agent's hook configuration is Gatehouse's own: writing it is change_gatehouse_policy, for every agent", () => {
    for (const file of [
      '/p/.claude/settings.json',
      '/p/.claude/settings.local.json',
      '/home/u/.codex/hooks.json',
      '/p/.codex/config.toml',
      '/p/.cursor/hooks.json',
      '/p/.gemini/settings.json',
      '/p/.github/hooks/gatehouse.json',
    ]) {
      expect(agentToolAction('claude-code', 'Write', { file_path: file }, parser)).toMatchObject({
        candidates: [{ action: 'change_gatehouse_policy' }],
      });
      expect(
        agentToolAction('codex', 'Bash', { command: `echo '{}' > ${file}` }, parser),
      ).toMatchObject({ candidates: [{ action: 'change_gatehouse_policy' }] });
    }
    expect(
      agentToolAction('cursor', 'Write', { file_path: '/p/src/settings.json' }, parser),
    ).toMatchObject({
      candidates: [{ action: 'write_file' }],
    });
  });

  it('an agent running `gatehouse hook … --install|--uninstall` changes Gatehouse policy', () => {
    for (const command of [
      'gatehouse hook codex --uninstall',
      'node /opt/gatehouse/dist/cli/gatehouse.js hook claude-code --install --command true',
      'cd /tmp && gatehouse hook cursor --uninstall --project .',
      // Any sub-command that needs the admin token reconfigures or decides.
      'gatehouse status',
      'gatehouse rules add git_push --tier auto',
      'npx gatehouse approve r-1',
    ]) {
      const mapping = agentToolAction('codex', 'Bash', { command }, parser);
      expect(mapping.kind === 'gate' && mapping.candidates[0]).toMatchObject({
        action: 'change_gatehouse_policy',
      });
    }
    expect(
      agentToolAction('codex', 'Bash', { command: 'gatehouse socket-path' }, parser),
    ).toMatchObject({ candidates: [{ action: 'read_file', target: 'shell built-ins only' }] });
  });

  it('every agent kind has a table; adapters and installers fill their slots', () => {
    for (const agent of AGENT_KINDS)
      expect(agentToolAction(agent, 'unknown-tool', {}, parser).kind).toBe('gate');
    expect(Object.keys(HOOK_ADAPTERS)).toEqual(
      expect.arrayContaining(['claude-code', 'codex', 'cursor']),
    );
    expect(Object.keys(HOOK_INSTALLERS)).toEqual(
      expect.arrayContaining(['claude-code', 'codex', 'cursor']),
    );
  });
});

describe('the Codex adapter', () => {
  const pre = {
    session_id: 's',
    turn_id: 't',
    transcript_path: null,
    cwd: '/p',
    hook_event_name: 'PreToolUse',
    model: 'gpt-5',
    permission_mode: 'bypassPermissions',
    tool_name: 'Bash',
    tool_input: { command: 'git push' },
    tool_use_id: 'call_1',
  };

  it('reads PreToolUse and PermissionRequest (no tool_use_id), ignores other events, refuses what it cannot read', () => {
    expect(codexEvent(JSON.stringify(pre))).toEqual({
      kind: 'tool',
      event: 'PreToolUse',
      sessionId: 's',
      tool: 'Bash',
      input: { command: 'git push' },
      cwd: '/p',
      toolUseId: 'call_1',
      permissionMode: 'bypassPermissions',
    });
    const { tool_use_id: _, ...permission } = { ...pre, hook_event_name: 'PermissionRequest' };
    expect(codexEvent(JSON.stringify(permission))).toMatchObject({
      kind: 'tool',
      event: 'PermissionRequest',
    });
    expect(codexEvent(JSON.stringify({ ...pre, hook_event_name: 'SubagentStart' }))).toEqual({
      kind: 'ignore',
      event: 'SubagentStart',
    });
    expect(
      codexEvent(
        JSON.stringify({ session_id: 's', hook_event_name: 'SessionEnd', reason: 'other' }),
      ),
    ).toMatchObject({ kind: 'record', type: 'codex.session_end', end: 'completed' });
    expect(codexEvent(JSON.stringify({ ...pre, hook_event_name: 'Stop' }))).toMatchObject({
      kind: 'record',
      type: 'codex.stop',
    });
    expect(codexEvent('{"hook_event_name":"PreToolUse", "tool_input": 3}')).toMatchObject({
      kind: 'invalid',
      event: 'PreToolUse',
    });
    expect(codexEvent('not json')).toMatchObject({ kind: 'invalid' });
  });

  it('answers with exactly the fields Codex accepts: no continue, no allow without updatedInput, no message on allow', () => {
    // An allow of the call as asked sets no decision: `allow` alone is a failed hook in Codex.
    expect(codexAnswer('PreToolUse', { behavior: 'allow', reason: 'ok' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse' },
    });
    // A person's approval carries its reason (their note) to the model.
    expect(
      codexAnswer('PreToolUse', { behavior: 'allow', reason: 'ok: only once', byPerson: true }),
    ).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ok: only once' },
    });
    // An edited call: `allow` with the input Codex runs instead.
    expect(
      codexAnswer('PreToolUse', {
        behavior: 'allow',
        reason: 'edited',
        byPerson: true,
        updatedInput: { command: 'git push origin feature' },
      }),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'edited',
        updatedInput: { command: 'git push origin feature' },
        additionalContext: 'edited',
      },
    });
    // Never an edited input on PermissionRequest, where Codex calls it unsupported.
    expect(
      codexAnswer('PermissionRequest', {
        behavior: 'allow',
        reason: 'edited',
        updatedInput: { command: 'x' },
      }),
    ).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    expect(codexAnswer('PreToolUse', { behavior: 'deny', reason: 'stop', stop: true })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'stop',
      },
    });
    expect(codexAnswer('PreToolUse', { behavior: 'ask', reason: 'late' })).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny' },
    });
    expect(codexAnswer('PermissionRequest', { behavior: 'allow', reason: 'ok' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    expect(codexAnswer('PermissionRequest', { behavior: 'deny', reason: 'no' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'no' },
      },
    });
    expect(codexAnswer('PreToolUse', { behavior: 'defer', reason: '' })).toBeUndefined();
  });

  it("install merges into the user's hooks.json, switches gate events, and uninstall removes exactly its entries", () => {
    const theirs = { type: 'command', command: 'python3 audit.py', timeout: 5 };
    const file = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [theirs] }] }, other: 1 };
    const cmd = 'NODE_EXTRA_CA_CERTS= /usr/bin/node /g/dist/cli/gatehouse.js hook codex';
    const isOurs = (c: unknown) => isGatehouseHookCommandFor('codex', c);
    const a = mergeHookGroups(
      file,
      [{ event: 'PreToolUse', matcher: '*', timeoutSec: 310 }],
      cmd,
      isOurs,
    );
    expect(a.settings).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [theirs] },
          { matcher: '*', hooks: [{ type: 'command', command: cmd, timeout: 310 }] },
        ],
      },
      other: 1,
    });
    const b = mergeHookGroups(
      a.settings,
      [{ event: 'PermissionRequest', matcher: '*', timeoutSec: 310 }],
      cmd,
      isOurs,
      ['PreToolUse'],
    );
    expect(Object.keys(b.settings.hooks as object)).toEqual(['PreToolUse', 'PermissionRequest']);
    expect((b.settings.hooks as { PreToolUse: unknown[] }).PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [theirs] },
    ]);
    expect(removeHookGroups(b.settings, ['PreToolUse', 'PermissionRequest'], isOurs)).toEqual({
      settings: file,
      removed: 1,
    });
    // Another agent's Gatehouse hook is not Codex's.
    expect(isOurs('node gatehouse.js hook claude-code')).toBe(false);
    expect(codexInstaller.project).toBe('optional');
  });
});

describe('the Cursor adapter', () => {
  const base = { conversation_id: 'c', generation_id: 'g', workspace_roots: ['/p'] };

  it('turns each event into one tool call, and MCP servers into names', () => {
    expect(
      cursorEvent(
        JSON.stringify({
          ...base,
          hook_event_name: 'beforeShellExecution',
          command: 'ls',
          cwd: '',
        }),
      ),
    ).toMatchObject({ kind: 'tool', tool: 'Shell', input: { command: 'ls' }, cwd: '/p' });
    expect(
      cursorEvent(
        JSON.stringify({
          ...base,
          hook_event_name: 'beforeMCPExecution',
          tool_name: 'q',
          tool_input: { a: 1 },
          url: 'https://mcp.example.com/x',
        }),
      ),
    ).toMatchObject({ tool: 'MCP:mcp.example.com:q', input: { a: 1 } });
    expect(
      cursorEvent(JSON.stringify({ ...base, hook_event_name: 'afterFileEdit', file_path: '/p/a' })),
    ).toEqual({ kind: 'ignore', event: 'afterFileEdit' });
  });

  it('answers permission with both messages, and the permission alone for a file read', () => {
    expect(cursorAnswer('beforeShellExecution', { behavior: 'ask', reason: 'r' })).toEqual({
      permission: 'ask',
      user_message: 'r',
      agent_message: 'r',
    });
    expect(cursorAnswer('beforeReadFile', { behavior: 'ask', reason: 'r' })).toEqual({
      permission: 'deny',
    });
  });

  it('refuses a hooks file of another version, and uninstall leaves other hooks alone', () => {
    expect(() => mergeCursorHooks({ version: 2 }, 'gatehouse hook cursor')).toThrow(/version/);
    const merged = mergeCursorHooks(
      { hooks: { stop: [{ command: 'x' }] } },
      'g/gatehouse.js hook cursor',
    );
    expect(merged.shared).toEqual([]);
    expect(removeCursorHooks(merged.file)).toEqual({
      file: { hooks: { stop: [{ command: 'x' }] }, version: 1 },
      removed: 4,
    });
  });
});

describe('the installed command', () => {
  it('carries GATEHOUSE_HOME and GATEHOUSE_SOCKET only when they are not the defaults', () => {
    expect(gatehouseEnvPrefix({ HOME: '/home/u' })).toBe('');
    expect(
      gatehouseEnvPrefix({
        HOME: '/home/u',
        GATEHOUSE_HOME: join(homedir(), '.local', 'share', 'gatehouse'),
      }),
    ).toBe('');
    expect(gatehouseEnvPrefix({ HOME: '/home/u', GATEHOUSE_HOME: '/srv/gh' })).toBe(
      'GATEHOUSE_HOME=/srv/gh ',
    );
    expect(gatehouseEnvPrefix({ HOME: '/home/u', GATEHOUSE_SOCKET: "/tmp/my dir/s'ock" })).toBe(
      `GATEHOUSE_SOCKET='/tmp/my dir/s'\\''ock' `,
    );
  });
});
