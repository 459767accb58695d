import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronRuntime } from './electron-runtime';

/**
 * `npm start`: the desktop app when the Electron runtime is installed, else headless mode,
 * saying in one line why (see {@link findElectronRuntime}).
 */
function electronBinary(): { path?: string | undefined; why?: string | undefined } {
  const require = createRequire(import.meta.url);
  return findElectronRuntime(() => require('electron') as unknown);
}

async function main(): Promise<void> {
  const forceHeadless =
    process.argv.includes('--headless') || process.env.GATEHOUSE_HEADLESS === '1';
  const electron = forceHeadless ? { why: 'headless mode was asked for' } : electronBinary();
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  if (electron.path && !existsSync(join(root, 'build', 'electron-native', 'better_sqlite3.node'))) {
    // The database addon must match Electron's ABI; build it once, else run headless.
    const built = spawnSync(
      process.execPath,
      [join(root, 'scripts', 'build-electron-native.mjs')],
      { stdio: 'inherit' },
    );
    if (built.status !== 0) {
      electron.path = undefined;
      electron.why = 'better-sqlite3 could not be built for Electron (see above)';
    }
  }
  if (electron.path) {
    // Started on the project folder, Electron reads package.json's "main" and its app path
    // is the project root, where the Electron build of the addon lives.
    const child = spawn(electron.path, [root], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }
  console.log(`gatehouse: starting headless mode: ${electron.why}.`);
  const { runDaemonForeground } = await import('./daemon');
  process.exitCode = await runDaemonForeground();
}

void main();
