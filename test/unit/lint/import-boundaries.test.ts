import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/daemon';

/**
 * The process boundaries are enforced by eslint.config.js (`npm run lint`, which CI runs).
 * These cases lint one import at a time as if it stood in a file of each folder, as a static
 * import and as an `import()`, so a rule that stops matching (a renamed folder, a pattern that
 * no longer applies, a dynamic import that slips past) fails here.
 */
let eslint: ESLint;
beforeAll(() => {
  // The files linted here do not exist, so the type-aware rule (which needs each file in a
  // TypeScript project) is off; the boundaries are syntactic.
  eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { '@typescript-eslint/no-floating-promises': 'off' },
    },
  });
});

async function refused(file: string, code: string, rule: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${file}` });
  return result!.messages.some((m) => m.ruleId === rule);
}

const staticImport = (specifier: string): string =>
  `import * as m from '${specifier}';\nexport default m;\n`;
const dynamicImport = (specifier: string): string =>
  `export default async () => await import('${specifier}');\n`;

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
  ['shared/node/x.ts', '../../main/server/dashboard-sessions', true],
  // main/ shares code with clients/ only through shared/.
  ['main/server/x.ts', '../../clients/hooks/adapter/relay', true],
  ['main/x.ts', '../clients/cli/gatehouse', true],
  ['main/engine/x.ts', '../../clients/sdk/rpc-errors', true],
  ['main/server/x.ts', '../../shared/node/hooks/relay/relay', false],
  ['main/shell/ipc-main.ts', '../../clients/sdk/client', true],
  ['main/x.ts', './server/dashboard-sessions', false],
  // renderer/ reaches main only through window.gatehouse.
  ['renderer/src/x.tsx', '../../main/server/admin-port', true],
  ['renderer/src/x.tsx', '../../shared/domain', false],
];

describe('import boundaries (eslint.config.js)', () => {
  it.each(CASES)('%s importing %s: refused %s', async (file, specifier, expected) => {
    expect(await refused(file, staticImport(specifier), 'no-restricted-imports')).toBe(expected);
  });

  it.each(CASES)('%s with import() of %s: refused %s', async (file, specifier, expected) => {
    expect(await refused(file, dynamicImport(specifier), 'no-restricted-syntax')).toBe(expected);
  });

  it('refuses an import() whose module is computed, which lint could not follow', async () => {
    for (const code of [
      'const dir = "main";\nexport default () => import(`../../${dir}/server/x`);\n',
      'export default (m: string) => import("../../" + m);\n',
    ])
      expect(await refused('clients/cli/x.ts', code, 'no-restricted-syntax')).toBe(true);
    expect(await refused('main/x.ts', dynamicImport('./daemon'), 'no-restricted-syntax')).toBe(
      false,
    );
  });

  it('keeps raw ipcMain out of main/ outside its wrapper, with the boundary rules beside it', async () => {
    const raw = "import { ipcMain } from 'electron';\nipcMain.handle('x', () => 1);\n";
    expect(await refused('main/shell/x.ts', raw, 'no-restricted-syntax')).toBe(true);
    expect(await refused('main/engine/x.ts', raw, 'no-restricted-syntax')).toBe(true);
    expect(await refused('main/shell/ipc-main.ts', raw, 'no-restricted-syntax')).toBe(false);
  });
});
