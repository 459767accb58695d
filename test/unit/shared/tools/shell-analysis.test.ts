import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { SHELL_LEAVES } from '../../../../shared/tools/shell-analysis';
import type { ShellParser } from '../../../../shared/tools/shell-syntax';

const require = createRequire(import.meta.url);

/** The grammar's own description of its nodes (tree-sitter writes it beside the parser). */
const NodeTypes = z.array(
  z.object({
    type: z.string(),
    named: z.boolean(),
    fields: z.record(z.string(), z.unknown()).optional(),
    children: z.unknown().optional(),
    subtypes: z.unknown().optional(),
  }),
);

const grammarDir = dirname(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
const nodeTypes = NodeTypes.parse(
  JSON.parse(readFileSync(join(grammarDir, 'src/node-types.json'), 'utf8')),
);

describe('the shell walk', () => {
  // The walk stops at these types without asking for children: a grammar update that gave
  // one of them children (an expansion inside, say) would hide those from the analysis.
  it('stops only at node types the grammar gives no children', () => {
    const leaves = nodeTypes
      .filter((n) => n.named && !n.children && !Object.keys(n.fields ?? {}).length && !n.subtypes)
      .map((n) => n.type);
    expect(leaves).toContain('word');
    for (const type of SHELL_LEAVES) expect(leaves, type).toContain(type);
  });
});

/**
 * The walk skips work the command's text rules out (a background `&` where the text has none,
 * a word's syntax where its value has no `$`, backquote or `(`). These are the texts at the
 * edge of each shortcut: each must still be seen.
 */
describe('what the shortcuts must still see', () => {
  let parser: ShellParser;
  beforeAll(async () => {
    parser = await loadBashParser();
  });
  const constructs = (command: string): string[] =>
    parser.analyse(command).opaque.map((o) => o.construct);
  /** The outer command's words (a substitution's command is listed before it). */
  const dynamic = (command: string): boolean[] | undefined =>
    parser.analyse(command).commands.find((c) => c.words[0] === command.split(' ')[0])?.dynamic;

  it.each([
    'sleep 5 &',
    'ls && npm run dev & curl localhost',
    "bash -c 'npm run dev & sleep 1'",
    "eval 'make watch &'",
    'for i in 1 2; do ./slow.sh $i & done',
    'echo $((1 & 3))',
    // The text checked for `&` is the parser's own: characters beyond ASCII before it count alike.
    "echo '日本語 🎉 ü' ; sleep 5 &",
  ])('%s leaves a process running (or is flagged as if it did)', (command) => {
    expect(constructs(command)).toContain('background');
  });

  it.each(['ls && pwd', 'ls 2>&1 | head', 'make &> build.log', "echo 'a&b'", 'true |& cat'])(
    '%s leaves nothing running',
    (command) => {
      expect(constructs(command)).not.toContain('background');
    },
  );

  it.each([
    ['cat $f', [false, true]],
    ['cat "${f}"', [false, true]],
    ['cat a"$(id)"b', [false, true]],
    ['cat `id`', [false, true]],
    ['cat <(ls)', [false, true]],
    ['echo $((1+2))', [false, true]],
    ['cat \\$HOME', [false, false]],
    ["cat '$HOME' plain", [false, false, false]],
    ['cat "(a)" a\\(b', [false, false, false]],
    ['cat ü$x 🎉', [false, true, false]],
  ] as const)('%s: the words that expand are %j', (command, expected) => {
    expect(dynamic(command)).toEqual(expected);
  });
});
