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
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRelayImage } from './relay-image.mjs';

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
    // dist/cli/gatehouse.js is the small CommonJS launcher written below; this is the rest.
    'cli-main/gatehouse': 'clients/cli/main.ts',
    // What the CLI runs of main/ (the daemon, the hub), loaded by clients/cli/load-main.ts
    // from beside the CLI's own files: the CLI's source never imports main/.
    'main/cli-entry': 'main/cli-entry.ts',
    'main/start': 'main/start.ts',
    'main/electron-main': 'main/shell/electron-main.ts',
    'sdk/index': 'clients/sdk/index.ts',
  }),
  outdir: out,
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  banner: nodeBuildBanner,
  plugins: [
    {
      // highlight.js is a development dependency (the renderer bundles it): the phone page's
      // highlighting bundles it into the daemon too, so an installed app needs no copy of it.
      name: 'bundle-highlight-js',
      setup(b) {
        b.onResolve({ filter: /^highlight\.js\// }, (args) => ({
          path: createRequire(import.meta.url).resolve(args.path),
        }));
      },
    },
  ],
});

// The hub's SQL migrations are read at run time (main/hub/store/migrate.ts): copied beside
// the bundled chunks as they are.
const hubMigrations = join(root, 'main/hub/store/migrations');
if (existsSync(hubMigrations)) {
  const to = join(out, 'hub/migrations');
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(hubMigrations).filter((f) => f.endsWith('.sql')))
    writeFileSync(join(to, file), readFileSync(join(hubMigrations, file)));
}

// The hook relay: CommonJS files of their own, apart from the CLI, so a hook process (one per
// tool call of an agent) loads only the relay, its connection and the adapters — no ESM
// loader, no commander, no zod, no `net`. The relay is minified, and its file carries the
// code V8 compiled for it (scripts/relay-image.mjs): loading it is part of every tool call.
// What only a Gatehouse that cannot answer needs (the shell parser, the agents' tool tables,
// the offline table: shared/node/hooks/relay/offline-judge.ts) is a file of its own, required
// only then. (The adapters stay in the relay's file: a file of each agent's
// own measured slower, one more module to resolve and read, than compiling the others.)
const OFFLINE_JUDGE = 'gatehouse-hook-offline';
const hookCommon = {
  ...common,
  metafile: true,
  outdir: join(out, 'hook'),
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  // import() becomes require(): no ESM loader in the hook process.
  supported: { 'dynamic-import': false },
  // import.meta.url (the shell parser finds its .wasm files with it), computed only if used.
  define: { ...common.define, 'import.meta.url': '__gatehouseModule.url' },
  banner: {
    js: "const __gatehouseModule = { get url() { return require('node:url').pathToFileURL(__filename).href; } };",
  },
};
const relayBuild = await build({
  ...hookCommon,
  entryPoints: present({ 'gatehouse-hook': 'clients/hooks/hook-main.ts' }),
  minify: true,
  // Kept in memory: the hook file is the relay with its compiled code (scripts/relay-image.mjs).
  write: false,
  sourcemap: false,
  plugins: [
    {
      name: 'relay-stays-light',
      setup(b) {
        // import() of the offline judge becomes require() of its own file, beside the relay.
        b.onResolve({ filter: /\/offline-judge$/ }, (args) =>
          args.kind === 'dynamic-import'
            ? { path: `./${OFFLINE_JUDGE}.cjs`, external: true }
            : undefined,
        );
        // The socket path needs `os` only without GATEHOUSE_SOCKET and XDG_RUNTIME_DIR (the
        // home directory): require it then, not on every start.
        b.onResolve({ filter: /^node:os$/ }, (args) =>
          args.importer.endsWith('socket-path.ts')
            ? { path: 'os', namespace: 'lazy-os' }
            : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'lazy-os' }, () => ({
          contents:
            "export const homedir = () => require('node:os').homedir();\nexport const userInfo = () => require('node:os').userInfo();\n",
          loader: 'js',
        }));
      },
    },
  ],
});
const offlineBuild = await build({
  ...hookCommon,
  entryPoints: present({ [OFFLINE_JUDGE]: 'shared/node/hooks/relay/offline-judge.ts' }),
});
const hookBuild = {
  metafile: {
    outputs: { ...relayBuild.metafile.outputs, ...offlineBuild.metafile.outputs },
  },
};
// The answered path must stay small: fail the build when the parser or a tool table leaks in.
const relayOutput = Object.values(relayBuild.metafile.outputs).find((o) => o.entryPoint);
const leaked = Object.keys(relayOutput?.inputs ?? {}).filter((f) =>
  /bash-parser|shell-analysis|bash-actions|tool-mapping|offline-decision|default-actions|protected-locations|zod/.test(
    f,
  ),
);
if (leaked.length)
  throw new Error(`the hook relay bundle pulls in ${leaked.join(', ')}: load it lazily`);
const relaySource = relayBuild.outputFiles.find((f) => f.path.endsWith('gatehouse-hook.cjs'));
if (relaySource) {
  const image = writeRelayImage({
    relaySource: relaySource.text,
    file: relaySource.path,
    root,
  });
  rmSync(`${relaySource.path}.map`, { force: true });
  if (image.problem)
    console.warn(`build: the hook relay runs without compiled code: ${image.problem}`);
}

// `gatehouse` itself: a CommonJS launcher (dist/cli/package.json says so) that hands
// `gatehouse hook <agent>` to the relay with require() and everything else to the ESM program.
mkdirSync(join(out, 'cli'), { recursive: true });
writeFileSync(join(out, 'cli/package.json'), '{ "type": "commonjs" }\n');
writeFileSync(
  join(out, 'cli/gatehouse.js'),
  `#!/usr/bin/env node
// Generated by scripts/build.mjs. An agent hook runs before every tool call: it skips the ESM
// loader and the command-line program, and loads only the relay (dist/hook/gatehouse-hook.cjs).
'use strict';
const [command, sub, ...rest] = process.argv.slice(2);
if (command === 'hook' && sub && !sub.startsWith('-') && rest.length === 0) {
  require('../hook/gatehouse-hook.cjs');
} else {
  import(require('node:url').pathToFileURL(require('node:path').join(__dirname, '../cli-main/gatehouse.js')).href);
}
`,
);

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
