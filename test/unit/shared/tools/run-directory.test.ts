import { describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { agentToolAction } from '../../../../shared/tools/agent-tools';
import { resolveRunDirectory, runDirectory } from '../../../../shared/tools/run-directory';

describe('the directory a tool call runs in', () => {
  it("resolves a call's own directory against the agent's, as path.resolve does", () => {
    expect(resolveRunDirectory('/p', 'src')).toBe('/p/src');
    expect(resolveRunDirectory('/p', './src/../lib/')).toBe('/p/lib');
    expect(resolveRunDirectory('/p/app', '../../etc')).toBe('/etc');
    expect(resolveRunDirectory('/p', '/home/u/.local/share/gatehouse')).toBe(
      '/home/u/.local/share/gatehouse',
    );
    expect(resolveRunDirectory('/p', '.')).toBe('/p');
    expect(resolveRunDirectory('C:\\work\\app', 'sub\\x')).toBe('C:/work/app/sub/x');
    expect(resolveRunDirectory('/p', 'D:\\elsewhere')).toBe('D:/elsewhere');
  });

  it("keeps the agent's directory without one; a relative one without a base is unknown", () => {
    expect(runDirectory('/p', undefined)).toBe('/p');
    expect(runDirectory(undefined, undefined)).toBeUndefined();
    expect(runDirectory(undefined, 'src')).toBeUndefined();
    expect(runDirectory(undefined, '/abs')).toBe('/abs');
  });

  it("Gemini CLI's dir_path and OpenCode's workdir are the call's directory, shown to the person", async () => {
    const shell = await loadBashParser();
    const gemini = agentToolAction(
      'gemini',
      'run_shell_command',
      {
        command: 'cat admin.token',
        dir_path: '/home/u/.local/share/gatehouse',
      },
      shell,
    );
    expect(gemini).toMatchObject({
      kind: 'gate',
      workdir: '/home/u/.local/share/gatehouse',
      description: 'Run: cat admin.token [in /home/u/.local/share/gatehouse]',
    });
    // An empty dir_path is the project directory to Gemini CLI too.
    const plain = agentToolAction(
      'gemini',
      'run_shell_command',
      { command: 'ls', dir_path: '' },
      shell,
    );
    expect(plain.kind === 'gate' && plain.workdir).toBeUndefined();
    expect(
      agentToolAction('opencode', 'bash', { command: 'cat x', workdir: 'sub' }, shell),
    ).toMatchObject({ kind: 'gate', workdir: 'sub' });
    // Tools without a directory of their own run in the agent's.
    for (const [agent, tool, input] of [
      ['claude-code', 'Bash', { command: 'ls', cwd: '/elsewhere' }],
      ['copilot', 'bash', { command: 'ls' }],
      ['cursor', 'Shell', { command: 'ls' }],
    ] as const) {
      const m = agentToolAction(agent, tool, input, shell);
      expect(m.kind === 'gate' && m.workdir).toBeUndefined();
    }
  });
});
