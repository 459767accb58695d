import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary tree laid out as a person's machine: a home, Gatehouse's data in it, a project. */
export interface HomeTree {
  root: string;
  home: string;
  /** Gatehouse's data folder where it is by default: `~/.local/share/gatehouse`. */
  data: string;
  /** `~/code/app`. */
  project: string;
}

/** Makes the root (real path: tmp may be a link) and names the rest; nothing else is created. */
export function homeTree(prefix: string): HomeTree {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, 'home');
  return {
    root,
    home,
    data: join(home, '.local/share/gatehouse'),
    project: join(home, 'code/app'),
  };
}
