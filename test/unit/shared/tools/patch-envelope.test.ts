import { beforeAll, describe, expect, it } from 'vitest';
import {
  patchActions,
  readEnvelopeHeader,
  UNREAD_FILES,
} from '../../../../shared/tools/patch-envelope';
import { splitPatch } from '../../../../shared/request-picture/patch-files';
import { fileEditOf } from '../../../../shared/request-picture/file-edits';
import { wideRulesStage } from '../../../support/wide-rules';

const envelope = (...lines: string[]): string =>
  ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

describe('apply_patch headers, as each agent reads them', () => {
  it('Codex trims a header line of Unicode white space (Rust’s, with U+0085) and keeps the path as written', () => {
    for (const indent of [' ', '\t', '  \t', '\u0085', '\u00a0', '\u2003', '\u3000', '\v'])
      expect(readEnvelopeHeader(`${indent}*** Add File: .git/hooks/pre-commit`), indent).toEqual({
        operation: 'add',
        paths: ['.git/hooks/pre-commit'],
      });
    expect(readEnvelopeHeader('*** Delete File: a.txt\r')).toEqual({
      operation: 'delete',
      paths: ['a.txt'],
    });
    // Codex opens " b.txt" (a name starting with a space): that is checked, and "b.txt" too.
    expect(readEnvelopeHeader('*** Update File:  b.txt')?.paths).toEqual([' b.txt', 'b.txt']);
  });

  it('OpenCode takes the marker without its space, and trims the path', () => {
    expect(readEnvelopeHeader('*** Add File:.git/hooks/pre-commit')).toEqual({
      operation: 'add',
      paths: ['.git/hooks/pre-commit'],
    });
    expect(readEnvelopeHeader('*** Move to:dest.txt ')).toEqual({
      operation: 'move',
      paths: ['dest.txt'],
    });
  });

  it('lines that are no header are none, and a patch with none edits a file no check names', () => {
    for (const line of ['+*** Add File: x', '-*** Delete File: x', '*** Begin Patch', '@@', ''])
      expect(readEnvelopeHeader(line), line).toBeUndefined();
    expect(patchActions(envelope('@@', '-a', '+b'))).toEqual([
      { action: 'edit_file', paths: [UNREAD_FILES] },
    ]);
  });

  it("every file of the patch is a candidate, and the person's picture shows each", () => {
    const patch = envelope(
      ' *** Add File: .git/hooks/pre-commit',
      '+touch pwned',
      '*** Update File: src/a.ts',
      '\t*** Move to: src/b.ts',
      '@@',
      '-a',
      '+b',
    );
    expect(patchActions(patch)).toEqual([
      { action: 'write_file', paths: ['.git/hooks/pre-commit', 'src/b.ts'] },
      { action: 'edit_file', paths: ['src/a.ts'] },
    ]);
    expect(splitPatch(patch).map((p) => [p.kind, p.path])).toEqual([
      ['add', '.git/hooks/pre-commit'],
      ['update', 'src/a.ts'],
    ]);
  });
});

describe('a patch under rules that let every edit and write in the project pass', () => {
  let stage: Awaited<ReturnType<typeof wideRulesStage>>;
  beforeAll(async () => {
    stage = await wideRulesStage(['edit_file', 'write_file']);
  });

  const verdicts = (agent: 'codex' | 'opencode', patch: string): string[] =>
    stage.verdicts(
      agent,
      'apply_patch',
      agent === 'codex' ? { command: patch } : { patchText: patch },
    );

  it('an ordinary file passes by the rule, for both agents', () => {
    const patch = envelope('*** Add File: src/new.ts', '+x');
    expect(verdicts('codex', patch)).toEqual(['auto:user:rul-1']);
    expect(verdicts('opencode', patch)).toEqual(['auto:user:rul-1']);
  });

  it('a patch whose files Gatehouse cannot read asks, critical, whatever the rules', () => {
    expect(verdicts('codex', 'the patch is elsewhere')).toEqual(['ask:protected:unresolved_path']);
  });

  it('a git hook or an agent’s own config asks, however its header is spelled', () => {
    for (const [agent, header] of [
      ['codex', ' *** Add File: .git/hooks/pre-commit'],
      ['codex', '\u0085*** Add File: .git/hooks/pre-commit'],
      ['opencode', '*** Add File:.git/hooks/pre-commit'],
      ['codex', '\t*** Update File: .codex/config.toml'],
      ['opencode', '*** Update File:.opencode/plugin/gatehouse.ts'],
    ] as const) {
      const found = verdicts(agent, envelope(header, '+x'));
      expect(
        found.some((v) => v.startsWith('ask:protected:')),
        `${agent} ${header}`,
      ).toBe(true);
      expect(
        found.some((v) => v.startsWith('auto:')),
        `${agent} ${header}`,
      ).toBe(false);
    }
  });

  it('a call carrying patches in two fields is judged on both and shown as both, for every agent', () => {
    const ordinary = envelope('*** Add File: src/new.ts', '+x');
    const hook = envelope('*** Add File: .git/hooks/pre-commit', '+touch pwned');
    // Codex's `command`, `patch`, `input`; Copilot CLI's `input`; OpenCode's `patchText`.
    const fields = ['command', 'patch', 'input', 'patchText'];
    for (const agent of ['codex', 'copilot', 'opencode'] as const)
      for (const first of fields)
        for (const second of fields.filter((f) => f !== first)) {
          const input = { [first]: ordinary, [second]: hook };
          const found = stage.verdicts(agent, 'apply_patch', input);
          expect(found, `${agent} ${first} ${second}`).toContain('ask:protected:vcs_config');
          expect(found.some((v) => v.startsWith('auto:'))).toBe(false);
          const shown = fileEditOf('apply_patch', input);
          expect(
            shown?.kind === 'patch' &&
              splitPatch(shown.patch)
                .map((p) => p.path)
                .sort(),
          ).toEqual(['.git/hooks/pre-commit', 'src/new.ts']);
        }
  });
});
