import { beforeAll, describe, expect, it } from 'vitest';
import { wideRulesStage } from '../../../../support/wide-rules';

/**
 * A file tool opens its path as written, where a shell would expand `$HOME`: the `..` after
 * `x$HOME` then leads somewhere else than the expanded word's. Both readings are checked.
 */
describe('a path a file tool names, as the tool opens it', () => {
  let stage: Awaited<ReturnType<typeof wideRulesStage>>;
  beforeAll(async () => {
    stage = await wideRulesStage(['write_file', 'edit_file'], ['.git/hooks']);
  });

  it('a git hook through .git/x$HOME/.. asks, by every agent', () => {
    for (const [agent, tool, input] of [
      ['opencode', 'write', { filePath: '.git/x$HOME/../hooks/pre-commit', content: 'x' }],
      ['claude-code', 'Write', { file_path: '.git/x$HOME/../hooks/pre-commit', content: 'x' }],
      ['gemini', 'write_file', { file_path: '.git/x${HOME}/../hooks/pre-commit', content: 'x' }],
      ['copilot', 'create', { path: '.git/x`echo`/../hooks/pre-commit', file_text: 'x' }],
    ] as const)
      expect(stage.verdicts(agent, tool, input), `${agent} ${tool}`).toEqual([
        'ask:protected:vcs_config',
      ]);
  });

  it('a plain path and a shell command are judged as before', () => {
    expect(stage.verdicts('opencode', 'write', { filePath: 'src/a.ts', content: 'x' })).toEqual([
      'auto:user:rul-0',
    ]);
    expect(stage.verdicts('claude-code', 'Bash', { command: 'echo x > src/a$HOME.ts' })).toEqual([
      'auto:user:rul-0',
    ]);
  });
});
