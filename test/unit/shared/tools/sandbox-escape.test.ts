import { describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { toolAction } from '../../../../shared/tools/claude-code-tools';
import { copilotToolAction } from '../../../../shared/tools/copilot-tools';
import { geminiToolAction } from '../../../../shared/tools/gemini-tools';
import { asksToLeaveSandbox } from '../../../../shared/tools/sandbox-escape';

const parser = await loadBashParser();

describe('a Claude Code call that asks to leave the sandbox (dangerouslyDisableSandbox)', () => {
  it('puts leave_sandbox first, before what the command itself does', () => {
    const m = toolAction('Bash', { command: 'ls', dangerouslyDisableSandbox: true }, parser);
    expect(m).toMatchObject({
      kind: 'gate',
      command: 'ls',
      candidates: [{ action: 'leave_sandbox', target: 'ls' }, { action: 'list_files' }],
    });
    expect(m.kind === 'gate' && m.description).toMatch(/^Outside Claude Code's sandbox: /);
  });

  it('counts any value but false or absent, since Claude Code reads it, not Gatehouse', () => {
    for (const v of [true, 'true', 1, 'yes', {}, null])
      expect(asksToLeaveSandbox({ command: 'ls', dangerouslyDisableSandbox: v })).toBe(true);
    expect(asksToLeaveSandbox({ command: 'ls', dangerouslyDisableSandbox: false })).toBe(false);
    expect(asksToLeaveSandbox({ command: 'ls' })).toBe(false);
    expect(asksToLeaveSandbox({ command: 'ls', dangerouslyDisableSandbox: undefined })).toBe(false);
  });

  it('leaves a call without it, or with it false, as it was', () => {
    for (const input of [{ command: 'ls' }, { command: 'ls', dangerouslyDisableSandbox: false }])
      expect(toolAction('Bash', input, parser)).toMatchObject({
        candidates: [{ action: 'list_files' }],
      });
  });

  it('asks for it on any tool that carries it, and not for internal tools', () => {
    expect(
      toolAction('Read', { file_path: '/p/a', dangerouslyDisableSandbox: true }, parser),
    ).toMatchObject({ candidates: [{ action: 'leave_sandbox' }, { action: 'read_file' }] });
    expect(toolAction('TodoWrite', { todos: [], dangerouslyDisableSandbox: true }, parser)).toEqual(
      {
        kind: 'internal',
      },
    );
  });
});

describe('a Claude Code Bash call with run_in_background', () => {
  it('is judged as the `&` it stands for: a process left running, which asks', () => {
    const m = toolAction(
      'Bash',
      { command: 'npm run dev # watch', run_in_background: true },
      parser,
    );
    expect(m).toMatchObject({ kind: 'gate', command: '{ npm run dev # watch\n} &' });
    const command = m.kind === 'gate' ? (m.command ?? '') : '';
    // The line break ends the comment, so the `&` is the shell's, not the comment's.
    expect(parser.analyse(command).opaque.map((o) => o.construct)).toContain('background');
  });

  it('leaves a call without it, or with it false, as it was', () => {
    for (const input of [{ command: 'ls' }, { command: 'ls', run_in_background: false }])
      expect(toolAction('Bash', input, parser)).toMatchObject({ command: 'ls' });
  });
});

describe("other agents' shell tools asked to leave a process running", () => {
  const backgrounded = (m: ReturnType<typeof geminiToolAction>) =>
    parser
      .analyse(m.kind === 'gate' ? (m.command ?? '') : '')
      .opaque.some((o) => o.construct === 'background');

  it('Gemini CLI: run_shell_command with is_background', () => {
    expect(
      backgrounded(
        geminiToolAction(
          'run_shell_command',
          { command: 'npm run dev', is_background: true },
          parser,
        ),
      ),
    ).toBe(true);
    expect(
      backgrounded(
        geminiToolAction('run_shell_command', { command: 'ls', is_background: false }, parser),
      ),
    ).toBe(false);
  });

  it('Copilot CLI: bash with detach, or a mode other than sync', () => {
    expect(
      backgrounded(copilotToolAction('bash', { command: 'npm run dev', detach: true }, parser)),
    ).toBe(true);
    expect(
      backgrounded(copilotToolAction('bash', { command: 'npm run dev', mode: 'async' }, parser)),
    ).toBe(true);
    expect(backgrounded(copilotToolAction('bash', { command: 'ls', mode: 'sync' }, parser))).toBe(
      false,
    );
    expect(backgrounded(copilotToolAction('bash', { command: 'ls' }, parser))).toBe(false);
  });
});
