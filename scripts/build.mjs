// Builds every Node-side entry with esbuild and the renderer with Vite.
// Node code is bundled (dependencies stay external) so the CLI starts fast: each command
// loads its own chunk, which keeps the Claude Code hook and `gatehouse status` light.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  readdirSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const started = Date.now();

mkdirSync(out, { recursive: true });

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const present = (entries) =>
  Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(join(root, file))));

const common = {
  define: { __GATEHOUSE_VERSION__: JSON.stringify(pkg.version) },
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
};

const nodeBuildBanner = {
  // Bundled ESM has no require(); some CommonJS dependencies need one.
  js: "import { createRequire as __gatehouseCreateRequire } from 'node:module'; const require = __gatehouseCreateRequire(import.meta.url);",
};

const nodeBuild = await build({
  ...common,
  metafile: true,
  entryPoints: present({
    'cli/gatehouse': 'clients/cli/gatehouse.ts',
    'main/start': 'main/start.ts',
    'main/electron-main': 'main/shell/electron-main.ts',
    'sdk/index': 'clients/sdk/index.ts',
  }),
  outdir: out,
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  banner: nodeBuildBanner,
});

// The hook relay: its own entry and chunks, built apart from the CLI so a hook process (one
// per tool call of an agent) loads only the relay, the socket client and its agent's adapter;
// the shell parser and the offline table load only when Gatehouse cannot answer.
const hookBuild = await build({
  ...common,
  metafile: true,
  entryPoints: present({ 'hook/gatehouse-hook': 'clients/hooks/hook-main.ts' }),
  outdir: out,
  format: 'esm',
  splitting: true,
  chunkNames: 'hook/chunks/[name]-[hash]',
  banner: nodeBuildBanner,
});

// The preload runs in a sandboxed renderer, which only loads CommonJS.
await build({
  ...common,
  entryPoints: present({ 'preload/index': 'preload/index.ts' }),
  outdir: out,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  external: ['electron'],
});

// Chunks of earlier builds are removed only once they are a minute old: a CLI or daemon
// started just before this build may still be loading them.
const fresh = new Set(
  [...Object.keys(nodeBuild.metafile.outputs), ...Object.keys(hookBuild.metafile.outputs)].map(
    (f) => join(root, f),
  ),
);
for (const dir of [join(out, 'chunks'), join(out, 'hook', 'chunks')]) {
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const file = join(dir, name);
    if (!fresh.has(file) && Date.now() - statSync(file).mtimeMs > 60_000)
      rmSync(file, { force: true });
  }
}

// The shell parser's WebAssembly stays in node_modules (dependencies are external) and is
// found at run time with require.resolve (shared/node/bash-parser.ts): fail the build, not
// the daemon, when it is missing.
const requireFromRoot = createRequire(join(root, 'package.json'));
for (const wasm of [
  'web-tree-sitter/web-tree-sitter.wasm',
  'tree-sitter-bash/tree-sitter-bash.wasm',
])
  requireFromRoot.resolve(wasm);

const cli = join(out, 'cli/gatehouse.js');
chmodSync(cli, 0o755);

// The renderer is only rebuilt when its sources are newer than the last build.
const rendererOut = join(out, 'renderer/index.html');
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
    const p = join(dir, e.name);
    return Math.max(max, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }, 0);
const hasRenderer = existsSync(join(root, 'renderer/index.html'));
const rendererSources = hasRenderer
  ? Math.max(newest(join(root, 'renderer')), newest(join(root, 'shared')))
  : 0;
if (
  hasRenderer &&
  (!existsSync(rendererOut) ||
    statSync(rendererOut).mtimeMs < rendererSources ||
    process.env.GATEHOUSE_FORCE_BUILD)
) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}

if (!process.env.GATEHOUSE_QUIET_BUILD) {
  console.error(`gatehouse: built in ${Date.now() - started} ms`);
}
