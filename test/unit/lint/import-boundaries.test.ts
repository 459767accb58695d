import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/daemon';

/**
 * The process boundaries are enforced by eslint.config.js (`npm run lint`, which CI runs).
 * These cases lint one import at a time as if it stood in a file of each folder, so a rule
 * that stops matching (a renamed folder, a glob that no longer applies) fails here.
 */
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function refused(file: string, specifier: string): Promise<boolean> {
  const code = `import * as m from '${specifier}';\nexport default m;\n`;
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${file}` });
  return result!.messages.some((m) => m.ruleId === 'no-restricted-imports');
}

/** [the file the import stands in, what it imports, whether lint refuses it]. */
const CASES: [string, string, boolean][] = [
  // clients/ may import shared/ and shared/node/ but never main/, renderer/ or preload/.
  ['clients/sdk/x.ts', '../../shared/domain', false],
  ['clients/sdk/x.ts', '../../shared/node/socket-path', false],
  ['clients/cli/x.ts', '../sdk/client', false],
  ['clients/sdk/x.ts', 'node:net', false],
  ['clients/sdk/x.ts', '../../main/engine/clock', true],
  ['clients/cli/x.ts', '../../main/daemon', true],
  ['clients/cli/x.ts', '../../renderer/src/App', true],
  ['clients/mcp/x.ts', '../../preload/index', true],
  // The engine imports no Node built-in, directly or through shared/node/.
  ['main/engine/x.ts', '../../shared/clock', false],
  ['main/engine/x.ts', './policy/classifier', false],
  ['main/engine/x.ts', 'node:crypto', true],
  ['main/engine/x.ts', 'crypto', true],
  ['main/engine/guards/x.ts', 'fs/promises', true],
  ['main/engine/x.ts', '../../shared/node/socket-dir', true],
  // Outside the engine, the composition roots may.
  ['main/x.ts', 'node:crypto', false],
  // shared/ proper imports neither Node nor shared/node/; a file named like a built-in is fine.
  ['shared/x.ts', './domain', false],
  ['shared/protocol/x.ts', './constants', false],
  ['shared/x.ts', 'node:path', true],
  ['shared/x.ts', './node/socket-path', true],
  ['shared/node/x.ts', 'node:path', false],
];

describe('import boundaries (eslint.config.js)', () => {
  it.each(CASES)('%s importing %s: refused %s', async (file, specifier, expected) => {
    expect(await refused(file, specifier)).toBe(expected);
  });
});
