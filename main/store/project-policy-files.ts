import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { RecentCache } from '../../shared/node/recent-cache';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { fieldProblems } from '../../shared/protocol/validate';
import {
  ProjectPolicyFile,
  type ProjectPolicy,
  type ProjectPolicyLoader,
} from '../engine/policy/project-policy';

export const PROJECT_POLICY_FILE = '.gatehouse.toml';

/** The project directory with symlinks resolved; as given (absolute) when it does not exist. */
export function canonicalDir(projectDir: string): string {
  return canonicalDirs.get(projectDir, () => {
    try {
      return realpathSync.native(projectDir);
    } catch {
      return resolve(projectDir);
    }
  });
}

/** Project directories resolved in the last second: every classify of a session asks again. */
const canonicalDirs = new RecentCache<string>(1000);

/**
 * The root of the project a directory is in: the nearest ancestor (or itself) with a
 * `.gatehouse.toml`, else the nearest with a `.git` (the repository root), else the
 * directory itself. The agent names its working directory, and `cd sub` must not take it
 * out from under its project's policy.
 */
export function projectRoot(dir: string): string {
  return projectRoots.get(dir, () => {
    const start = resolve(dir);
    // A home folder kept in git (dotfiles) is not the project of every folder under it.
    const notRepos = new Set([resolve(homedir()), '/']);
    return nearestWith(start, PROJECT_POLICY_FILE) ?? nearestWith(start, '.git', notRepos) ?? start;
  });
}

function nearestWith(
  start: string,
  name: string,
  skip: ReadonlySet<string> = new Set(),
): string | undefined {
  for (let d = start; ; d = dirname(d)) {
    if (!skip.has(d) && existsSync(join(d, name))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** Roots found in the last second: every hook process says hello with its directory. */
const projectRoots = new RecentCache<string>(1000);

/**
 * Reads `<project>/.gatehouse.toml` and hashes its exact bytes, re-reading only when the
 * file's modification time, change time or size changes (the change time cannot be set back
 * by `touch`, so an edit that keeps the old mtime is still seen). The hash is of the very
 * bytes that were parsed, so what is trusted is what applies.
 *
 * A broken file is an error the agent sees (-32602), never a silently weaker policy.
 */
export function projectPolicyFiles(): ProjectPolicyLoader {
  const cache = new Map<string, { stamp: string; policy: ProjectPolicy }>();
  const load = (projectDir: string): ProjectPolicy | undefined => {
    const dir = canonicalDir(projectDir);
    const file = join(dir, PROJECT_POLICY_FILE);
    let stamp: string;
    try {
      // Most projects have no policy file: asking without an exception keeps that cheap (a
      // thrown ENOENT costs more than the stat itself, on every classify).
      const st = statSync(file, { throwIfNoEntry: false });
      if (!st) {
        cache.delete(file);
        return undefined;
      }
      stamp = `${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.ino}`;
    } catch {
      cache.delete(file);
      return undefined;
    }
    const hit = cache.get(file);
    if (hit && hit.stamp === stamp) return hit.policy;
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      cache.delete(file);
      return undefined;
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    let raw: unknown;
    try {
      raw = parseToml(bytes.toString('utf8'));
    } catch (error) {
      throw new GatehouseError(
        ErrorCode.InvalidParams,
        `${file} is not valid TOML: ${(error as Error).message}`,
      );
    }
    const parsed = ProjectPolicyFile.safeParse(raw);
    if (!parsed.success) {
      const problems = fieldProblems(parsed.error);
      throw new GatehouseError(
        ErrorCode.InvalidParams,
        `${file} is invalid: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
        problems,
      );
    }
    const policy: ProjectPolicy = { file, dir, sha256, policy: parsed.data };
    cache.set(file, { stamp, policy });
    return policy;
  };
  return Object.assign(load, {
    canonicalDir,
    projectRoot,
    fileIn: (projectDir: string) => join(projectDir, PROJECT_POLICY_FILE),
  });
}
