import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { RollupLog } from 'rollup';
import viteConfig from '../../../vite.config';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('the renderer build says nothing about zod', () => {
  it("drops Rollup's INVALID_ANNOTATION warnings of zod only, and passes every other warning on", () => {
    const config =
      typeof viteConfig === 'function'
        ? viteConfig({ command: 'build', mode: 'production' })
        : viteConfig;
    type OnWarn = (w: RollupLog, warn: (w: RollupLog) => void) => void;
    const { onwarn } = (config as { build: { rollupOptions: { onwarn: OnWarn } } }).build
      .rollupOptions;
    const passed: RollupLog[] = [];
    const zodNote = {
      code: 'INVALID_ANNOTATION',
      id: join(ROOT, 'node_modules/zod/v4/core/util.js'),
      message: 'contains an annotation that Rollup cannot interpret',
    };
    onwarn(zodNote, (w) => passed.push(w));
    expect(passed).toEqual([]);
    const elsewhere = { ...zodNote, id: join(ROOT, 'node_modules/react/index.js') };
    const otherCode = { ...zodNote, code: 'CIRCULAR_DEPENDENCY' };
    onwarn(elsewhere, (w) => passed.push(w));
    onwarn(otherCode, (w) => passed.push(w));
    expect(passed).toEqual([elsewhere, otherCode]);
  });

  it('a real build of the renderer prints no annotation warning', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gatehouse-renderer-'));
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        [
          join(ROOT, 'node_modules/vite/bin/vite.js'),
          'build',
          '--outDir',
          out,
          '--logLevel',
          'warn',
        ],
        { cwd: ROOT },
      );
      expect(`${stdout}${stderr}`).not.toMatch(/annotation|zod/i);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
