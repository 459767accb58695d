import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citationProblems, sourceFiles } from '../../support/comment-citations';
import { ROOT } from '../../support/daemon';

describe('what source comments cite', () => {
  it('only documents that exist, and no issue numbers', () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(300);
    const problems = files.flatMap((file) =>
      citationProblems(file, readFileSync(join(ROOT, file), 'utf8'), (doc) =>
        existsSync(join(ROOT, doc)),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('finds each kind of bad citation in comments, and leaves code alone', () => {
    const sample = [
      '/** The socket path, resolved as PROTOCOL.md says. */',
      ' * Paged lists (issue 14): a page ends at a row.',
      '// See docs/policy.md and docs/nowhere.md.',
      '# Issues 2 and 3 named it.',
      "const reply = 'issue 9 and PROTOCOL.md in a string';",
      '#!/usr/bin/env bash',
    ].join('\n');
    expect(citationProblems('x.ts', sample, (doc) => doc === 'docs/policy.md')).toEqual([
      'x.ts:1: cites PROTOCOL.md (docs/protocol.md)',
      'x.ts:2: cites an issue number',
      'x.ts:3: cites docs/nowhere.md, which does not exist',
      'x.ts:4: cites an issue number',
    ]);
  });
});
