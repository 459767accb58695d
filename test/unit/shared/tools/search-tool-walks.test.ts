import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { agentToolAction } from '../../../../shared/tools/agent-tools';
import type { AgentKind } from '../../../../shared/tools/agent-kinds';
import type { ShellParser } from '../../../../shared/tools/shell-syntax';

/**
 * Which of the agents' own search tools print the lines of what they find, and so are walked
 * for secrets as `rg --hidden` is (hidden files read, .gitignore honoured).
 */
describe("the agents' search tools: what they print the lines of", () => {
  let parser: ShellParser;
  beforeAll(async () => {
    parser = await loadBashParser();
  });
  const walks = (client: AgentKind, tool: string, input: Record<string, unknown>) => {
    const m = agentToolAction(client, tool, input, parser);
    if (m.kind !== 'gate') throw new Error(`${tool} is internal`);
    return m.candidates[0]?.walks;
  };
  const all = { hidden: true, ignores: true, only: [] };

  it('content mode walks; names, counts and code types do not; by default as each tool prints', () => {
    for (const [client, tool] of [
      ['claude-code', 'Grep'],
      ['copilot', 'grep'],
      ['copilot', 'rg'],
    ] as const) {
      expect(walks(client, tool, { pattern: 'K', output_mode: 'content' }), tool).toEqual(all);
      expect(walks(client, tool, { pattern: 'K' }), tool).toBeUndefined();
      expect(walks(client, tool, { pattern: 'K', output_mode: 'count' }), tool).toBeUndefined();
      expect(
        walks(client, tool, { pattern: 'K', output_mode: 'content', type: 'ts' }),
        tool,
      ).toBeUndefined();
    }
    expect(walks('cursor', 'Grep', { pattern: 'K' })).toEqual(all);
    expect(walks('opencode', 'grep', { pattern: 'K', path: 'src' })).toEqual(all);
    expect(walks('gemini', 'grep_search', { pattern: 'K' })).toEqual(all);
    expect(walks('gemini', 'grep_search', { pattern: 'K', names_only: true })).toBeUndefined();
  });

  it('file globs narrow the names read, a glob read as a path or a pathspec is every name', () => {
    const content = { pattern: 'K', output_mode: 'content' };
    expect(walks('claude-code', 'Grep', { ...content, glob: '*.ts' })).toMatchObject({
      only: ['*.ts'],
    });
    expect(walks('claude-code', 'Grep', { ...content, glob: '*.{ts,env}' })).toMatchObject({
      only: ['*'],
    });
    expect(walks('opencode', 'grep', { pattern: 'K', include: 'src/**' })).toMatchObject({
      only: ['*'],
    });
    expect(walks('gemini', 'grep_search', { pattern: 'K', include_pattern: '*.ts' })).toMatchObject(
      { only: ['*.ts'] },
    );
    // git grep's pathspec: `conf*` also matches config/.env.
    for (const spec of ['conf*', 'src', '*.e*'])
      expect(
        walks('gemini', 'grep_search', { pattern: 'K', include_pattern: spec }),
        spec,
      ).toMatchObject({ only: ['*'] });
  });
});
