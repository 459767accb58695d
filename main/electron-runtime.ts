import { existsSync } from 'node:fs';

/** Where the Electron binary is, or one sentence saying why there is none and what to do. */
export type ElectronRuntime = { path: string; why?: undefined } | { path?: undefined; why: string };

/** What the desktop app needs that a headless install skips, said once for every case. */
const HOW_TO_GET_IT =
  'it is optional; for the tray app run `npm install electron` where its download is reachable';

/**
 * Finds the Electron binary for `npm start`. `loadElectron` is `require('electron')`, whose
 * export is the binary's path; it throws when the package is absent (an install that skipped
 * optional dependencies) or when its binary was never downloaded. Either way the person
 * reads what it means and what to do, not Node's module-resolution error.
 */
export function findElectronRuntime(
  loadElectron: () => unknown,
  fileExists: (path: string) => boolean = existsSync,
): ElectronRuntime {
  let path: unknown;
  try {
    path = loadElectron();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND')
      return { why: `the Electron runtime is not installed (${HOW_TO_GET_IT})` };
    return { why: `the Electron binary was not downloaded (${HOW_TO_GET_IT})` };
  }
  if (typeof path === 'string' && fileExists(path)) return { path };
  return { why: `the Electron binary was not downloaded (${HOW_TO_GET_IT})` };
}
