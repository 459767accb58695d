import { describe, expect, it } from 'vitest';
import { CallNotes } from '../../../../../main/engine/requests/call-notes';
import { FakeClock } from '../../../../support/fake-clock';

describe('CallNotes: approval notes waiting for their call to run', () => {
  const input = { command: 'git push origin main', description: 'Push' };

  it('hands a note out once, to the same session, tool and input (in any key order)', () => {
    const notes = new CallNotes(new FakeClock());
    notes.keep('s1', 'run_shell_command', input, 'push once');
    expect(notes.take('s2', 'run_shell_command', input)).toBeUndefined();
    expect(notes.take('s1', 'shell', input)).toBeUndefined();
    expect(notes.take('s1', 'run_shell_command', { command: 'git push origin main' })).toBe(
      undefined,
    );
    expect(
      notes.take('s1', 'run_shell_command', { description: 'Push', command: input.command }),
    ).toBe('push once');
    expect(notes.take('s1', 'run_shell_command', input)).toBeUndefined();
  });

  it('tells nested values apart, and two approvals of one call give their notes in order', () => {
    const notes = new CallNotes(new FakeClock());
    notes.keep('s', 'mcp_x', { a: { b: [1, '2'] } }, 'first');
    notes.keep('s', 'mcp_x', { a: { b: [1, '2'] } }, 'second');
    expect(notes.take('s', 'mcp_x', { a: { b: [1, 2] } })).toBeUndefined();
    expect(notes.take('s', 'mcp_x', { a: { b: [1, '2'] } })).toBe('first');
    expect(notes.take('s', 'mcp_x', { a: { b: [1, '2'] } })).toBe('second');
  });

  it('forgets a note after 10 minutes, and keeps 16 per session at most', () => {
    const clock = new FakeClock();
    const notes = new CallNotes(clock);
    notes.keep('s', 't', { n: 0 }, 'old');
    clock.advance(10 * 60_000);
    expect(notes.take('s', 't', { n: 0 })).toBeUndefined();
    for (let n = 0; n < 17; n++) notes.keep('s', 't', { n }, `note ${n}`);
    expect(notes.take('s', 't', { n: 0 })).toBeUndefined();
    expect(notes.take('s', 't', { n: 1 })).toBe('note 1');
    expect(notes.take('s', 't', { n: 16 })).toBe('note 16');
  });
});
