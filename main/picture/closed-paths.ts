import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { protectedLocation } from '../../shared/policy/protected-locations';
import { secretKind } from '../engine/policy/secret-paths';

/** Why a file must not be read into a picture, or undefined when it may be. */
export type ClosedCheck = (path: string) => Promise<string | undefined>;

const slashes = (p: string): string => p.replace(/\\/g, '/');

/**
 * The files a picture never reads, whatever the call names: Gatehouse's own (`roots`: the
 * data directory with the admin token and hub key, the program, the socket's folder), the
 * protected locations (agent and git config), and secrets (ssh keys, cloud credentials,
 * `.env`). Both the path as written and its real path are checked, so a link (or a linked
 * folder on the way) to a closed file is closed too. A picture is shown on the phone, in
 * notifications and on the hub: a file read into it would leave the machine.
 */
export function closedPaths(roots: readonly string[]): ClosedCheck {
  const home = slashes(homedir());
  const ci = process.platform === 'darwin' || process.platform === 'win32';
  const closedRoots = roots.map((r) => slashes(resolve(r)));
  const check = (p: string): string | undefined => {
    for (const root of closedRoots)
      if (p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`))
        return "Gatehouse's own files";
    const location = protectedLocation(p, home, ci);
    if (location) return location.what;
    return secretKind(p, home, ci);
  };
  return async (path) => {
    const lexical = slashes(resolve(path));
    const direct = check(lexical);
    if (direct !== undefined) return direct;
    let real: string;
    try {
      real = slashes(await realpath(path));
    } catch {
      // Not there (nothing to read), or a folder on the way that cannot be resolved.
      return undefined;
    }
    return real === lexical ? undefined : check(real);
  };
}
