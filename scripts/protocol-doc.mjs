// Regenerates the field tables of docs/protocol.md from the zod schemas in shared/protocol
// (see scripts/render-protocol-doc.ts). `--check` changes nothing and exits 1 when the file is
// out of date. Run it after changing any protocol schema; `npm test` checks the result.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docFile = join(root, 'docs', 'protocol.md');
const work = mkdtempSync(join(tmpdir(), 'gatehouse-protocol-doc-'));
try {
  const bundle = join(work, 'render.mjs');
  await build({
    entryPoints: [join(root, 'scripts', 'render-protocol-doc.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    nodePaths: [join(root, 'node_modules')],
    logLevel: 'warning',
  });
  const { renderProtocolDoc } = await import(pathToFileURL(bundle).href);
  const before = readFileSync(docFile, 'utf8');
  const after = renderProtocolDoc(before);
  if (process.argv.includes('--check')) {
    if (after !== before) {
      console.error('docs/protocol.md is out of date: run `node scripts/protocol-doc.mjs`');
      process.exitCode = 1;
    }
  } else if (after !== before) {
    writeFileSync(docFile, after);
    console.error('protocol-doc: wrote docs/protocol.md');
  } else console.error('protocol-doc: docs/protocol.md is up to date');
} finally {
  rmSync(work, { recursive: true, force: true });
}
