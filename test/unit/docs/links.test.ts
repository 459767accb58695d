import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenLinks, docPages, headingSlug, namedPaths } from '../../support/doc-links';
import { ROOT } from '../../support/daemon';

describe("the docs' links", () => {
  it('every relative link and image of the README, CONTRIBUTING.md, docs/ and bench/README.md exists, and every anchor has its heading', () => {
    const pages = docPages(ROOT);
    expect(pages.length).toBeGreaterThan(10);
    expect(brokenLinks(pages, ROOT)).toEqual([]);
  });

  it('every file and folder the pages name in code exists', () => {
    const missing = docPages(ROOT).flatMap((page) =>
      namedPaths(readFileSync(page, 'utf8'))
        .filter((path) => !PLANNED.has(path) && !existsSync(join(ROOT, path)))
        .map((path) => `${relative(ROOT, page)}: ${path}`),
    );
    expect(missing).toEqual([]);
  });
});

/**
 * Folders the docs describe before they exist (the hub, being built); each leaves this list
 * once it exists.
 */
const PLANNED = new Set(['main/hub/']);

describe('the link check itself, on a small broken sample', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-doc-links-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds a missing page, a missing image, a missing anchor here and in another page, and passes what holds', () => {
    mkdirSync(join(root, 'docs/images'), { recursive: true });
    writeFileSync(join(root, 'docs/images/shot.png'), 'png');
    writeFileSync(
      join(root, 'docs/other.md'),
      '# Other\n\n## Claude Code headless (`claude -p`)\n\n## Twice\n\n## Twice\n',
    );
    const page = join(root, 'docs/page.md');
    writeFileSync(
      page,
      [
        '# Page',
        '',
        '## A heading, with punctuation!',
        '',
        'Good: [other](other.md), [its heading](other.md#claude-code-headless-claude--p),',
        '[the second twice](other.md#twice-1), [here](#a-heading-with-punctuation),',
        '![shot](images/shot.png), <img src="images/shot.png" alt="">, [web](https://example.com/x).',
        '',
        'Broken: [gone](gone.md), ![gone](images/gone.png), <img src="images/lost.png">,',
        '[no anchor here](#nowhere), [no anchor there](other.md#nowhere),',
        '[anchor into a picture](images/shot.png#top).',
        '',
        'Not links: `[in code](gone.md)`, and in a block:',
        '',
        '```md',
        '[in a block](gone.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks([page, join(root, 'docs/missing.md')], root)).toEqual([
      'docs/page.md: gone.md (no such file)',
      'docs/page.md: images/gone.png (no such file)',
      'docs/page.md: #nowhere (no heading makes #nowhere)',
      'docs/page.md: other.md#nowhere (no heading makes #nowhere)',
      'docs/page.md: images/shot.png#top (an anchor into something that is not a page)',
      'docs/page.md: images/lost.png (no such file)',
      'docs/missing.md: the page itself is missing',
    ]);
  });

  it('reads the repository paths a page names in code, leaving out patterns and prose', () => {
    expect(
      namedPaths(
        'See `main/server/ndjson.ts` and `test/e2e/`, `shared/tools/<agent>-tools.ts`, ' +
          '`bench/*.bench.mjs`, `node scripts/build.mjs && npm start`, and main/prose.ts.',
      ),
    ).toEqual(['main/server/ndjson.ts', 'test/e2e/', 'scripts/build.mjs']);
  });

  it('makes anchors as GitHub does', () => {
    expect(headingSlug('Decide from your phone: decision links')).toBe(
      'decide-from-your-phone-decision-links',
    );
    expect(headingSlug('"Make it a rule": suggestions from repeated approvals')).toBe(
      'make-it-a-rule-suggestions-from-repeated-approvals',
    );
    expect(headingSlug("Defence in depth: Claude Code's own sandbox")).toBe(
      'defence-in-depth-claude-codes-own-sandbox',
    );
    expect(headingSlug('Project policy in `.gatehouse.toml`')).toBe(
      'project-policy-in-gatehousetoml',
    );
  });
});
