import { describe, expect, it } from 'vitest';
import { contextFacts } from '../../../../shared/context-facts';
import { editStats } from '../../../../shared/tools/edit-stats';

describe('editStats', () => {
  it('says how many lines a file edit adds and removes', () => {
    expect(editStats('Write', { file_path: 'a.ts', content: 'one\ntwo\nthree\n' })).toBe(
      '+3 −0 lines',
    );
    expect(editStats('Edit', { old_string: 'a\nb', new_string: 'a\nb\nc\nd' })).toBe('+4 −2 lines');
    expect(
      editStats('MultiEdit', {
        edits: [
          { old_string: 'x', new_string: 'y\nz' },
          { old_string: 'p\nq', new_string: '' },
        ],
      }),
    ).toBe('+2 −3 lines');
    expect(editStats('NotebookEdit', { new_source: 'print(1)' })).toBe('+1 −0 lines');
    expect(editStats('Bash', { command: 'ls' })).toBeUndefined();
  });

  it('reads as "Changes" among the context facts', () => {
    expect(contextFacts({ tool: 'Edit', diff: '+4 −2 lines' })).toEqual([
      { key: 'tool', label: 'Tool', text: 'Edit' },
      { key: 'diff', label: 'Changes', text: '+4 −2 lines' },
    ]);
  });
});
