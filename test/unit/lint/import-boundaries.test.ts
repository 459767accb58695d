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

describe('import boundaries (eslint.config.js)', () => {
  it('clients/ may import shared/ and shared/node/ but never main/, renderer/ or preload/', async () => {
    expect(await refused('clients/sdk/x.ts', '../../shared/domain')).toBe(false);
    expect(await refused('clients/sdk/x.ts', '../../shared/node/socket-path')).toBe(false);
    expect(await refused('clients/cli/x.ts', '../sdk/client')).toBe(false);
    expect(await refused('clients/sdk/x.ts', 'node:net')).toBe(false);
    expect(await refused('clients/sdk/x.ts', '../../main/engine/clock')).toBe(true);
    expect(await refused('clients/cli/x.ts', '../../main/daemon')).toBe(true);
    expect(await refused('clients/cli/x.ts', '../../renderer/src/App')).toBe(true);
    expect(await refused('clients/mcp/x.ts', '../../preload/index')).toBe(true);
  });

  it('the engine imports no Node built-in, directly or through shared/node/', async () => {
    expect(await refused('main/engine/x.ts', '../../shared/clock')).toBe(false);
    expect(await refused('main/engine/x.ts', './policy/classifier')).toBe(false);
    expect(await refused('main/engine/x.ts', 'node:crypto')).toBe(true);
    expect(await refused('main/engine/x.ts', 'crypto')).toBe(true);
    expect(await refused('main/engine/guards/x.ts', 'fs/promises')).toBe(true);
    expect(await refused('main/engine/x.ts', '../../shared/node/socket-dir')).toBe(true);
    // Outside the engine, the composition roots may.
    expect(await refused('main/x.ts', 'node:crypto')).toBe(false);
  });

  it('shared/ proper imports neither Node nor shared/node/; a file named like a built-in is fine', async () => {
    expect(await refused('shared/x.ts', './domain')).toBe(false);
    expect(await refused('shared/protocol/x.ts', './constants')).toBe(false);
    expect(await refused('shared/x.ts', 'node:path')).toBe(true);
    expect(await refused('shared/x.ts', './node/socket-path')).toBe(true);
    expect(await refused('shared/node/x.ts', 'node:path')).toBe(false);
  });
});
