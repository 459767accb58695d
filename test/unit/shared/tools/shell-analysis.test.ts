import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SHELL_LEAVES } from '../../../../shared/tools/shell-analysis';

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
