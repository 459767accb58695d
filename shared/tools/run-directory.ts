/**
 * The directory a tool call runs in. Some agents' shell tools take a working directory of
 * their own (Gemini CLI's `run_shell_command{dir_path}`, OpenCode's `bash{workdir}`): the
 * command runs there, not in the agent's directory, so its relative paths are judged there.
 * Pure (no node:path): the daemon's engine and the hook's offline table both use it.
 */

/** An absolute path: POSIX `/…`, or Windows `C:\…`, `C:/…` and `\\server\…`. */
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

/**
 * `dir` made absolute against `base` and normalised lexically (`.` and `..` dropped), as
 * Node's `path.resolve(base, dir)` does: what Gemini CLI and OpenCode do before running the
 * command there. Undefined when `dir` is relative and there is no base to resolve it against.
 */
export function resolveRunDirectory(base: string | undefined, dir: string): string | undefined {
  const slashed = dir.replace(/\\/g, '/');
  const joined = ABSOLUTE.test(dir)
    ? slashed
    : base !== undefined
      ? `${base.replace(/\\/g, '/')}/${slashed}`
      : undefined;
  if (joined === undefined) return undefined;
  const drive = /^[A-Za-z]:/.exec(joined)?.[0] ?? '';
  const parts: string[] = [];
  for (const seg of joined.slice(drive.length).split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `${drive}/${parts.join('/')}`;
}

/**
 * Where a call runs: the agent's directory `cwd`, or the call's own `workdir` resolved
 * against it. A relative `workdir` without a `cwd` to resolve it against is unknown: undefined.
 */
export function runDirectory(
  cwd: string | undefined,
  workdir: string | undefined,
): string | undefined {
  return workdir === undefined ? cwd : resolveRunDirectory(cwd, workdir);
}
