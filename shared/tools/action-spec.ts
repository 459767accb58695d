import { protectedLocation } from '../policy/protected-locations';
import type { SecretWalk } from './commands/secret-walk';

/** A Gatehouse action as the hook asks about it (the fields of `classify` and `request`). */
export interface ActionSpec {
  /** Gatehouse action name, e.g. `git_push`, `write_file`, `mcp:github:create_issue`. */
  action: string;
  target?: string;
  paths?: string[];
  /** An agent's own content search: which files under its paths it prints the lines of. */
  walks?: SecretWalk;
}

/**
 * How restrictive an action is, to pick the one a chained command stands for: the hook asks
 * Gatehouse about every candidate and files the request for the most restrictive one that
 * asks. Unlisted actions (MCP tools, unknown tools) count as an arbitrary command.
 */
const SEVERITY: Readonly<Record<string, number>> = {
  read_file: 0,
  list_files: 0,
  search_files: 0,
  git_status: 0,
  git_log: 0,
  git_diff: 0,
  memory_read: 0,
  run_tests: 1,
  create_branch: 1,
  create_worktree: 1,
  memory_write: 1,
  write_file: 2,
  edit_file: 2,
  git_commit: 3,
  web_fetch: 3,
  modify_config: 3,
  run_command: 4,
  start_service: 4,
  install_package: 5,
  modify_permissions: 5,
  create_comment: 6,
  create_issue: 6,
  create_pull_request: 6,
  send_email: 6,
  send_message: 6,
  post_message: 6,
  delete_files: 7,
  git_push: 7,
  deploy: 8,
  change_gatehouse_policy: 9,
  leave_sandbox: 9,
};

export const severity = (action: string): number => SEVERITY[action] ?? SEVERITY.run_command!;

/** Actions that change files; on a Gatehouse policy file they are `change_gatehouse_policy`. */
const FILE_CHANGES = new Set([
  'write_file',
  'edit_file',
  'delete_files',
  'modify_permissions',
  'modify_config',
]);
/**
 * A Gatehouse policy file, or an agent's hook configuration — the file that sends the agent's
 * tool calls to Gatehouse at all (shared/policy/protected-locations.ts): an agent that
 * rewrites it turns its own gate off. Matched on the path made lexically plain (`//`, `./`,
 * `a/..`); the daemon matches the path as the kernel resolves it as well.
 */
function isPolicyFile(path: string): boolean {
  const kind = protectedLocation(plainPath(path), '')?.kind;
  return kind === 'gatehouse_policy' || kind === 'agent_config';
}

/** Forward slashes, no empty or `.` segments, `a/..` dropped: the path's text as the kernel reads it without links. */
export function plainPath(path: string): string {
  const absolute = /^[\\/]/.test(path);
  const out: string[] = [];
  for (const seg of path.split(/[\\/]+/)) {
    if (!seg || seg === '.') continue;
    if (seg === '..' && out.length && out.at(-1) !== '..') out.pop();
    else out.push(seg);
  }
  return (absolute ? '/' : '') + out.join('/');
}

/**
 * Writing, editing or deleting a `.gatehouse.toml` anywhere is its own action: a policy file
 * decides what agents may do, so changing one always goes to the person. The same
 * holds for an agent's hook configuration.
 */
export function asPolicyChange(c: ActionSpec): ActionSpec {
  if (!FILE_CHANGES.has(c.action) || !c.paths?.some(isPolicyFile)) return c;
  return { ...c, action: 'change_gatehouse_policy' };
}

/** Merges candidates with the same action and target (paths joined), most restrictive first. */
export function rankCandidates(candidates: ActionSpec[]): ActionSpec[] {
  const byKey = new Map<string, ActionSpec>();
  for (const raw of candidates) {
    const c = asPolicyChange(raw);
    const key = `${c.action}\u0000${c.target ?? ''}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { ...c, ...(c.paths ? { paths: [...c.paths] } : {}) });
    else if (c.paths?.length) seen.paths = [...new Set([...(seen.paths ?? []), ...c.paths])];
  }
  // A stable sort keeps the command's own order among equals.
  return [...byKey.values()].sort((a, b) => severity(b.action) - severity(a.action));
}
