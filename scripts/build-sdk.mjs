// Builds the agent SDK as a package of its own (clients/sdk): one ESM bundle with the
// project's shared code inside (so the package depends on nothing of main/ or shared/ at run
// time) and one bundled declaration file. `npm pack clients/sdk` runs this through prepack.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sdk = join(root, 'clients', 'sdk');
const out = join(sdk, 'dist');
const started = Date.now();
mkdirSync(out, { recursive: true });

const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const sdkPkg = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8'));
if (sdkPkg.version !== rootPkg.version) {
  console.error(
    `build-sdk: clients/sdk/package.json is ${sdkPkg.version} but Gatehouse is ${rootPkg.version}; keep them equal`,
  );
  process.exit(1);
}

await build({
  absWorkingDir: root,
  entryPoints: [join(sdk, 'index.ts')],
  outfile: join(out, 'index.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});

// One declaration file: the sources import each other without extensions, which a consumer
// on `moduleResolution: node16` could not follow across many files.
const require = createRequire(import.meta.url);
execFileSync(
  process.execPath,
  [
    require.resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js'),
    '--silent',
    '--no-check',
    '--project',
    join(sdk, 'tsconfig.build.json'),
    '-o',
    join(out, 'index.d.ts'),
    join(sdk, 'index.ts'),
  ],
  { cwd: root, stdio: 'inherit' },
);
if (!process.env.GATEHOUSE_QUIET_BUILD)
  console.error(`gatehouse: SDK package built in ${Date.now() - started} ms (${out})`);
