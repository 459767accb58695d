import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { fieldProblems } from '../../shared/protocol/validate';
import {
  ProjectPolicyFile,
  type ProjectPolicy,
  type ProjectPolicyLoader,
} from '../engine/policy/project-policy';

export const PROJECT_POLICY_FILE = '.gatehouse.toml';

/**
 * Reads `<project>/.gatehouse.toml`, re-reading only when its modification time changes.
 * A broken file is an error the agent sees (-32602), never a silently weaker policy.
 */
export function projectPolicyFiles(): ProjectPolicyLoader {
  const cache = new Map<string, { mtimeMs: number; policy: ProjectPolicy }>();
  return (projectDir) => {
    const file = join(projectDir, PROJECT_POLICY_FILE);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      cache.delete(file);
      return undefined;
    }
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit.policy;
    let raw: unknown;
    try {
      raw = parseToml(readFileSync(file, 'utf8'));
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
    const policy = { file, policy: parsed.data };
    cache.set(file, { mtimeMs, policy });
    return policy;
  };
}
