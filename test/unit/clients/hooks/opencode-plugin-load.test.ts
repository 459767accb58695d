import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  pluginLoadProblem,
  pluginSyntaxProblem,
} from '../../../../clients/hooks/opencode/plugin-load';
import { opencodePluginSource } from '../../../../clients/hooks/opencode/plugin-source';

/** Each case runs a real Node child, as install and `--check` do. */
describe('whether a plugin file loads as OpenCode loads it', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("Gatehouse's own plugin loads, whatever the command it runs", async () => {
    expect(await pluginLoadProblem(opencodePluginSource('gatehouse hook opencode', 300_000))).toBe(
      undefined,
    );
    expect(await pluginLoadProblem(opencodePluginSource(`it's "odd"\n\\`, 1))).toBe(undefined);
  });

  it('a syntax error, a throwing top level, an export OpenCode cannot call, no export: each named', async () => {
    const broken = `${opencodePluginSource('x', 1)}\nexport const x = (;\n`;
    expect(await pluginLoadProblem(broken)).toMatch(
      /^a syntax error, line \d+: SyntaxError: Unexpected token/,
    );
    expect(await pluginLoadProblem("throw new Error('boom');\nexport const P = () => ({});")).toBe(
      'importing it fails: boom',
    );
    expect(await pluginLoadProblem('export const P = () => ({});\nexport const n = 1;')).toMatch(
      /export "n" is not a function/,
    );
    expect(await pluginLoadProblem('const a = 1;')).toMatch(/exports no plugin function/);
    expect(await pluginLoadProblem("import './missing.js';\nexport const P = () => ({});")).toMatch(
      /^importing it fails/,
    );
  });

  it('the syntax check alone runs none of the code: an altered file is never run by a check', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-opencode-load-'));
    const ran = join(dir, 'ran');
    const planted = `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, 'x');\nexport const P = () => ({});\n`;
    expect(await pluginSyntaxProblem(planted)).toBe(undefined);
    expect(existsSync(ran)).toBe(false);
    // The import does run it: which is why only Gatehouse's own file is imported.
    expect(await pluginLoadProblem(planted)).toBe(undefined);
    expect(existsSync(ran)).toBe(true);
  });
});
