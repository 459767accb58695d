import { describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { agentToolAction } from '../../../../shared/tools/agent-tools';
import { mcpCall, otherTool, pathsIn, toolInputPaths } from '../../../../shared/tools/tool-mapping';

describe("the paths an MCP tool's input names", () => {
  it('are string values under keys that name files, at any depth, and file:// URLs', () => {
    expect(
      toolInputPaths({
        path: '/home/u/.local/share/gatehouse/admin.token',
        options: { file_path: 'src/a.ts', encoding: 'utf8' },
        paths: ['a.md', 'b.md'],
        edits: [{ oldText: 'x', newText: 'y' }],
        source: 'file:///tmp/a%20b.txt',
        destination: 'https://example.com/upload',
        directory: '~/notes',
        text: '/etc/passwd is named here but not under a path key',
      }),
    ).toEqual([
      '/home/u/.local/share/gatehouse/admin.token',
      'src/a.ts',
      'a.md',
      'b.md',
      '/tmp/a b.txt',
      '~/notes',
    ]);
  });

  it('more than 32 end in a word no check resolves, so the call asks', () => {
    const many = toolInputPaths({ paths: Array.from({ length: 40 }, (_, i) => `f${i}`) });
    expect(many).toHaveLength(33);
    expect(many.at(-1)).toBe('$TOO_MANY_PATHS');
  });

  it('go with the action, which otherwise carries none', () => {
    expect(mcpCall('fs', 'read_file', { path: 'a.txt' })).toMatchObject({
      candidates: [{ action: 'mcp:fs:read_file', paths: ['a.txt'] }],
    });
    expect(mcpCall('echo', 'echo_text', { text: 'hi' })).toMatchObject({
      candidates: [{ action: 'mcp:echo:echo_text' }],
    });
    const [only] = (mcpCall('echo', 'echo_text', { text: 'hi' }) as { candidates: object[] })
      .candidates;
    expect(only).not.toHaveProperty('paths');
  });

  it("go with a tool no table knows too: Gemini CLI's read_mcp_resource of a file:// URI", () => {
    expect(toolInputPaths({ uri: 'file:///home/u/a.txt', url: 'https://example.com/a' })).toEqual([
      '/home/u/a.txt',
    ]);
    expect(otherTool('read_mcp_resource', { uri: 'file:///home/u/a.txt' })).toMatchObject({
      candidates: [{ action: 'tool:read_mcp_resource', paths: ['/home/u/a.txt'] }],
    });
    expect(otherTool('read_mcp_resource', { uri: 'notes://today' })).toMatchObject({
      candidates: [{ action: 'tool:read_mcp_resource' }],
    });
  });
});

describe('the paths a known file tool names', () => {
  it('are every field it may read, each a string or a list: the agent may read another than the first', async () => {
    const parser = await loadBashParser();
    expect(pathsIn({ path: 'a', paths: ['b', '', 'c'], file_path: 7 }, 'paths', 'path')).toEqual([
      'b',
      'c',
      'a',
    ]);
    // Copilot CLI's grep searches every path of `paths` (and `paths` before `path`).
    expect(
      agentToolAction(
        'copilot',
        'grep',
        { pattern: '.', path: 'src', paths: ['README.md', '.env'] },
        parser,
      ),
    ).toMatchObject({
      candidates: [{ action: 'search_files', paths: ['README.md', '.env', 'src'], target: '.' }],
      description: 'Search for "." in README.md, .env, src',
    });
    expect(
      agentToolAction(
        'cursor',
        'Write',
        { file_path: 'a.ts', path: '.git/hooks/pre-commit' },
        parser,
      ),
    ).toMatchObject({
      candidates: [{ action: 'write_file', paths: ['a.ts', '.git/hooks/pre-commit'] }],
    });
  });
});
