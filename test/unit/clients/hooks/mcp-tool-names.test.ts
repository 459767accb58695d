import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { agentToolAction } from '../../../../shared/tools/agent-tools';
import { geminiEvent } from '../../../../shared/node/hooks/gemini/adapter';
import { copilotEvent } from '../../../../shared/node/hooks/copilot/adapter';
import { codexEvent } from '../../../../shared/node/hooks/codex/adapter';
import { opencodeEvent } from '../../../../shared/node/hooks/opencode/adapter';
import { AGENT_KINDS, type AgentKind } from '../../../../shared/tools/agent-kinds';
import { CLAUDE_CODE_TOOLS } from '../../../../shared/tools/claude-code-tools';
import { CODEX_TOOLS } from '../../../../shared/tools/codex-tools';
import { COPILOT_TOOLS } from '../../../../shared/tools/copilot-tools';
import { CURSOR_TOOLS } from '../../../../shared/tools/cursor-tools';
import { GEMINI_TOOLS } from '../../../../shared/tools/gemini-tools';
import { OPENCODE_TOOLS } from '../../../../shared/tools/opencode-tools';
import type { ToolTable } from '../../../../shared/tools/tool-mapping';
import type { HookEvent } from '../../../../shared/node/hooks/relay/types';

/**
 * How Gemini CLI, Copilot CLI, Codex CLI and OpenCode name an MCP tool in their hook payloads, on payloads recorded
 * from the pinned CLIs calling a real stdio MCP server (test/fixtures/mcp/echo-server.mjs)
 * configured under server names with and without `_`, `-` and `.`.
 */
interface Recorded {
  cli: string;
  version: string;
  payloads: {
    configuredServer: string;
    nameDeclaredToModel?: string;
    payload: Record<string, unknown>;
  }[];
}

/** OpenCode's recordings: the `tool.execute.before` input and output its plugin got. */
interface RecordedPlugin {
  cli: string;
  version: string;
  payloads: {
    configuredServer: string;
    nameDeclaredToModel: string;
    pluginInput: Record<string, unknown>;
    pluginOutput: { args: Record<string, unknown> };
  }[];
}

const parser = await loadBashParser();
const fixture = <T = Recorded>(name: string): T =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', name), 'utf8'),
  ) as T;
const pinned = (pkg: string): string =>
  (
    JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', '..', 'agents', 'package.json'), 'utf8'),
    ) as {
      dependencies: Record<string, string>;
    }
  ).dependencies[pkg]!;

/** The Gatehouse action the daemon's gate maps one recorded payload to, as the relay sends it. */
function actionOf(agent: AgentKind, event: HookEvent): string | undefined {
  if (event.kind !== 'tool') throw new Error(`not a tool call: ${JSON.stringify(event)}`);
  const mapping = agentToolAction(agent, event.tool, event.input, parser, event.mcp);
  return mapping.kind === 'gate' ? mapping.candidates[0]?.action : undefined;
}

describe('Gemini CLI MCP tool names (recorded from the pinned CLI)', () => {
  const recorded = fixture('gemini-mcp-hook-payloads.json');
  /** The first recorded payload with `changes` laid over it, as the hook reads it. */
  const firstPayloadWith = (changes: Record<string, unknown>): HookEvent => {
    const [{ payload }] = recorded.payloads as [Recorded['payloads'][number]];
    return geminiEvent(JSON.stringify({ ...payload, ...changes }));
  };

  it('was recorded with the pinned version', () => {
    expect(recorded.version).toBe(pinned(recorded.cli));
  });

  it('names a tool mcp_<server>_<tool> and reports the server apart, in mcp_context', () => {
    for (const { configuredServer, nameDeclaredToModel, payload } of recorded.payloads) {
      expect(payload.tool_name).toBe(`mcp_${configuredServer}_echo_text`);
      expect(payload.tool_name).toBe(nameDeclaredToModel);
      expect(payload.mcp_context).toMatchObject({
        server_name: configuredServer,
        tool_name: 'echo_text',
      });
    }
  });

  it('maps each call to mcp:<configured server>:<tool>, also for a server named with _ and -', () => {
    const actions = recorded.payloads.map(({ payload }) =>
      actionOf('gemini', geminiEvent(JSON.stringify(payload))),
    );
    expect(actions).toEqual(['mcp:echo:echo_text', 'mcp:my_echo-srv:echo_text']);
  });

  it('without mcp_context it does not guess the server from the name: the call asks as tool:<name>', () => {
    for (const { payload } of recorded.payloads) {
      const { mcp_context: _dropped, ...bare } = payload;
      expect(actionOf('gemini', geminiEvent(JSON.stringify(bare)))).toBe(
        `tool:${payload.tool_name as string}`,
      );
    }
  });

  it('a server named with : is not read as another server: the call asks as tool:<name>', () => {
    const event = firstPayloadWith({
      tool_name: 'mcp_git:hub_echo_text',
      mcp_context: { server_name: 'git:hub', tool_name: 'echo_text' },
    });
    expect(actionOf('gemini', event)).toBe('tool:mcp_git:hub_echo_text');
    const permission = copilotEvent(
      JSON.stringify({
        hookName: 'permissionRequest',
        sessionId: 's',
        toolName: 'git:hub/echo_text',
        toolInput: {},
      }),
    );
    expect(actionOf('copilot', permission)).toBe('tool:git:hub/echo_text');
  });

  it('mcp_context beside a tool that is not an MCP tool is ignored', () => {
    const event = firstPayloadWith({
      tool_name: 'run_shell_command',
      tool_input: { command: 'git push origin main' },
    });
    expect(event).not.toHaveProperty('mcp');
    expect(actionOf('gemini', event)).toBe('git_push');
  });

  it('a context it cannot read is left out, not half used', () => {
    for (const mcp_context of [
      { server_name: 'echo' },
      { server_name: '', tool_name: 'x' },
      'echo',
      { server_name: 'e'.repeat(129), tool_name: 'x' },
    ]) {
      const event = firstPayloadWith({ mcp_context });
      expect(event).not.toHaveProperty('mcp');
      expect(actionOf('gemini', event)).toBe('tool:mcp_echo_echo_text');
    }
  });
});

describe('Copilot CLI MCP tool names (recorded from the pinned CLI)', () => {
  const recorded = fixture('copilot-mcp-hook-payloads.json');
  const byEvent = (event: 'preToolUse' | 'permissionRequest') =>
    recorded.payloads.filter((r) => (r.payload.hookName ?? 'preToolUse') === event);

  it('was recorded with the pinned version', () => {
    expect(recorded.version).toBe(pinned(recorded.cli));
  });

  it('names a tool <server>-<tool> in preToolUse (the server made safe) and <server>/<tool> in permissionRequest', () => {
    expect(byEvent('preToolUse').map((r) => [r.configuredServer, r.payload.toolName])).toEqual([
      ['echo', 'echo-echo_text'],
      ['my-echo', 'my-echo-echo_text'],
      ['my_echo', 'my_echo-echo_text'],
      ['a.b', 'a-b-echo_text'],
    ]);
    for (const r of byEvent('preToolUse')) expect(r.payload.toolName).toBe(r.nameDeclaredToModel);
    expect(byEvent('permissionRequest').map((r) => r.payload.toolName)).toEqual([
      'echo/echo_text',
      'my-echo/echo_text',
      'my_echo/echo_text',
      'a.b/echo_text',
    ]);
  });

  it('maps a name with one separator to mcp:<server>:<tool>, and asks as tool:<name> where the server cannot be told', () => {
    const actions = recorded.payloads.map(({ configuredServer, payload }) => [
      configuredServer,
      (payload.hookName as string | undefined) ?? 'preToolUse',
      actionOf('copilot', copilotEvent(JSON.stringify(payload))),
    ]);
    expect(actions).toEqual([
      ['echo', 'preToolUse', 'mcp:echo:echo_text'],
      ['echo', 'permissionRequest', 'mcp:echo:echo_text'],
      // my-echo-echo_text: server `my` or `my-echo`? Not guessed.
      ['my-echo', 'preToolUse', 'tool:my-echo-echo_text'],
      ['my-echo', 'permissionRequest', 'mcp:my-echo:echo_text'],
      ['my_echo', 'preToolUse', 'mcp:my_echo:echo_text'],
      ['my_echo', 'permissionRequest', 'mcp:my_echo:echo_text'],
      ['a.b', 'preToolUse', 'tool:a-b-echo_text'],
      ['a.b', 'permissionRequest', 'mcp:a.b:echo_text'],
    ]);
  });

  it('keeps its own tools and names without a separator as they were', () => {
    expect(
      actionOf(
        'copilot',
        copilotEvent(
          JSON.stringify({
            sessionId: 's',
            toolName: 'bash',
            toolArgs: { command: 'git push origin main' },
          }),
        ),
      ),
    ).toBe('git_push');
    expect(
      actionOf(
        'copilot',
        copilotEvent(JSON.stringify({ sessionId: 's', toolName: 'mystery', toolArgs: {} })),
      ),
    ).toBe('tool:mystery');
    for (const name of ['-x', 'x-', 'a/b/c', 'a//b'])
      expect(
        actionOf(
          'copilot',
          copilotEvent(JSON.stringify({ sessionId: 's', toolName: name, toolArgs: {} })),
        ),
      ).toBe(`tool:${name}`);
  });
});

describe('Codex CLI MCP tool names (recorded from the pinned CLI)', () => {
  const recorded = fixture('codex-mcp-hook-payloads.json');

  it('was recorded with the pinned version', () => {
    expect(recorded.version).toBe(pinned(recorded.cli));
  });

  it('names a tool mcp__<server>__<tool>, the server made safe, with nothing else about the server', () => {
    expect(recorded.payloads.map((r) => [r.configuredServer, r.payload.tool_name])).toEqual([
      ['echo', 'mcp__echo__echo_text'],
      ['my_echo-srv', 'mcp__my_echo_srv__echo_text'],
      ['a__b', 'mcp__a__b__echo_text'],
      ['a.b', 'mcp__a_b__echo_text'],
    ]);
    for (const { payload } of recorded.payloads) expect(payload).not.toHaveProperty('mcp_context');
  });

  it('maps a name with one __ after the prefix to mcp:<server>:<tool>, and asks as tool:<name> where the server cannot be told', () => {
    const actions = recorded.payloads.map(({ payload }) => {
      const event = codexEvent(JSON.stringify(payload));
      return actionOf('codex', event);
    });
    expect(actions).toEqual([
      'mcp:echo:echo_text',
      'mcp:my_echo_srv:echo_text',
      // mcp__a__b__echo_text: server `a` or `a__b`? Not guessed.
      'tool:mcp__a__b__echo_text',
      'mcp:a_b:echo_text',
    ]);
    for (const name of ['mcp__a___b', 'mcp____b', 'mcp__a__'])
      expect(
        actionOf('codex', {
          kind: 'tool',
          event: 'PreToolUse',
          sessionId: 's',
          tool: name,
          input: {},
        }),
      ).toBe(`tool:${name}`);
  });
});

describe('OpenCode MCP tool names (recorded from the pinned CLI)', () => {
  const recorded = fixture<RecordedPlugin>('opencode-mcp-hook-payloads.json');
  /** What Gatehouse's plugin (plugin-source.ts) relays for one recorded call. */
  const relayed = (input: Record<string, unknown>, args: Record<string, unknown>) =>
    opencodeEvent(
      JSON.stringify({
        event: 'tool.execute.before',
        tool: input.tool,
        sessionID: input.sessionID,
        callID: input.callID,
        args,
        directory: '/p',
      }),
    );

  it('was recorded with the pinned version', () => {
    expect(recorded.version).toBe(pinned(recorded.cli));
  });

  it('names a tool <server>_<tool>, the server made safe, and its plugin input says nothing else of the server', () => {
    expect(recorded.payloads.map((r) => [r.configuredServer, r.pluginInput.tool])).toEqual([
      ['echo', 'echo_echo_text'],
      ['my_echo', 'my_echo_echo_text'],
      ['my-echo', 'my-echo_echo_text'],
      ['a.b', 'a_b_echo_text'],
    ]);
    for (const r of recorded.payloads) {
      expect(r.pluginInput.tool).toBe(r.nameDeclaredToModel);
      expect(Object.keys(r.pluginInput).sort()).toEqual(['callID', 'sessionID', 'tool']);
      expect(r.pluginOutput).toEqual({ args: { text: 'hello' } });
    }
  });

  it('no name tells its server (_ is in server and tool names alike): every call asks as tool:<name>', () => {
    const actions = recorded.payloads.map(({ pluginInput, pluginOutput }) =>
      actionOf('opencode', relayed(pluginInput, pluginOutput.args)),
    );
    expect(actions).toEqual([
      // echo_echo_text: server `echo` or `echo_echo`? Not guessed.
      'tool:echo_echo_text',
      'tool:my_echo_echo_text',
      'tool:my-echo_echo_text',
      'tool:a_b_echo_text',
    ]);
  });

  it('does not read mcp__<server>__<tool> either: OpenCode would name server mcp, tool _github__x so', () => {
    const [{ pluginInput }] = recorded.payloads as [RecordedPlugin['payloads'][number]];
    const event = relayed({ ...pluginInput, tool: 'mcp__github__create_issue' }, {});
    expect(actionOf('opencode', event)).toBe('tool:mcp__github__create_issue');
    expect(actionOf('opencode', relayed({ ...pluginInput, tool: 'bash' }, { command: 'ls' }))).toBe(
      'list_files',
    );
  });
});

describe('an MCP server and tool reported beside a call (the mcp field of a gate call)', () => {
  // Attack: a gate call naming one of the agent's own tools (a shell command, a file write)
  // with an `mcp` field that points at a server a rule trusts, to have the call judged as
  // that MCP tool. The agent's table wins: the field only names tools the table does not know.
  const tables: Record<AgentKind, ToolTable> = {
    'claude-code': CLAUDE_CODE_TOOLS,
    codex: CODEX_TOOLS,
    gemini: GEMINI_TOOLS,
    copilot: COPILOT_TOOLS,
    opencode: OPENCODE_TOOLS,
    cursor: CURSOR_TOOLS,
  };
  const input = {
    command: 'git push origin main',
    cmd: 'git push origin main',
    file_path: '/etc/passwd',
    path: '/etc/passwd',
    content: 'x',
  };
  const trusted = { server: 'trusted', tool: 'noop' };

  it.each(AGENT_KINDS)('%s: every tool of its own table maps as without the field', (agent) => {
    const names = Object.keys(tables[agent]);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names)
      expect(agentToolAction(agent, name, input, parser, trusted), name).toEqual(
        agentToolAction(agent, name, input, parser),
      );
  });
});
