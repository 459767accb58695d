// Builds main/engine/guards/circuit-breaker.ts with esbuild into a temp file and imports it,
// so the benchmark measures the same code the daemon and the SDK run.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Returns the compiled module of the circuit breaker and the system clock. */
export async function loadBreaker() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const outfile = join(dir, 'breaker.mjs');
  try {
    await build({
      absWorkingDir: root,
      stdin: {
        contents:
          "export * from './main/engine/guards/circuit-breaker';\nexport { systemClock } from './main/engine/clock';\n",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      outfile,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
