import { join } from 'node:path';
import { createPathResolver } from '../../shared/node/path-resolver';
import type { ShellParser } from '../../shared/tools/shell-syntax';
import type { PathContext } from '../../main/engine/policy/protected-paths';
import { protectedRoots } from '../../main/protection';

/**
 * The path protection of a daemon whose data folder is `data` under `home`, its socket under
 * `root/run`, as the classification tests build it: the real resolver unless one is given.
 */
export function testPathContext(o: {
  root: string;
  home: string;
  data: string;
  shell: ShellParser;
  cwd?: string;
  resolver?: PathContext['resolver'];
}): PathContext {
  return {
    protectedRoots: protectedRoots({
      home: o.data,
      socketPath: join(o.root, 'run/gatehouse/agent.sock'),
      env: { XDG_CONFIG_HOME: join(o.home, '.config') },
    }),
    home: o.home,
    resolver: o.resolver ?? createPathResolver({ home: o.home, gatehouseHome: o.data }),
    shell: o.shell,
    caseInsensitive: false,
    ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
  };
}
