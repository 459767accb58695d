import { accessSync, constants, statSync } from 'node:fs';

/**
 * True when `path` is a file the shell would run by name from its folder: a regular file
 * (through links) that this process may execute. Never throws: a path it cannot stat is none.
 */
export function isProgramFile(path: string): boolean {
  try {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
