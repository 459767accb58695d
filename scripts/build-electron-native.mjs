// Builds better-sqlite3's addon for the installed Electron's ABI into
// build/electron-native/better_sqlite3.node, leaving node_modules' plain-Node build (used by
// the tests and headless mode) untouched. `npm start` runs this once when the desktop app
// is about to start without it. Needs Electron's headers, so a network connection.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const target = join(root, 'build', 'electron-native', 'better_sqlite3.node');
const electronVersion = require('electron/package.json').version;
const source = dirname(require.resolve('better-sqlite3/package.json'));
const work = mkdtempSync(join(tmpdir(), 'gatehouse-bs3-'));
try {
  console.error(
    `gatehouse: building better-sqlite3 for Electron ${electronVersion} (about a minute)…`,
  );
  cpSync(source, work, { recursive: true });
  rmSync(join(work, 'build'), { recursive: true, force: true });
  const gyp = require.resolve('node-gyp/bin/node-gyp.js');
  execFileSync(
    process.execPath,
    [
      gyp,
      'rebuild',
      '--runtime=electron',
      `--target=${electronVersion}`,
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: work, stdio: 'inherit' },
  );
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target);
  console.error(`gatehouse: wrote ${target}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (!existsSync(target)) process.exit(1);
