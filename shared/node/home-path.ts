import { join } from 'node:path';

/**
 * A path as a program that reads its own settings file expands it: `~` is the home folder,
 * `~/x` a path in it, anything else as written (git's `include.path`, npm's `prefix`).
 */
export const expandHomePath = (path: string, home: string): string =>
  path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
