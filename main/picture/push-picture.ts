import type { PushCommit, PushPicture } from '../../shared/request-picture/picture-schema';
import { GIT_LIMITS, safeGit, type GitLimits, type GitOutcome } from './safe-git';

/** The most commits listed by name; the count says how many there are in all. */
export const MAX_LISTED_COMMITS = 50;
/** The most diffstat text kept. */
const MAX_DIFFSTAT_CHARS = 8000;

/** A push as the command names it: the remote, the refspec, and whether it forces. */
export interface PushTarget {
  remote?: string;
  refspec?: string;
  force: boolean;
}

/**
 * The push a `git push` command asks for, read from its words (or its text split on blanks):
 * the first operand is the remote, the second the refspec (`src:dst`, `+` forcing); `-f`,
 * `--force`, `--force-with-lease` and `--force-if-includes` force. Other options are passed over.
 */
export function pushTargetOf(command: string | readonly string[]): PushTarget {
  const words = typeof command === 'string' ? command.trim().split(/\s+/) : command;
  const at = words.indexOf('push');
  const rest = at < 0 ? [] : words.slice(at + 1);
  let force = false;
  const operands: string[] = [];
  for (const w of rest) {
    if (/^(&&|\|\||;|\|)$/.test(w)) break;
    if (/^(-f|--force|--force-with-lease(=.*)?|--force-if-includes)$/.test(w)) force = true;
    else if (/^-[a-zA-Z]*f[a-zA-Z]*$/.test(w)) force = true;
    else if (!w.startsWith('-')) operands.push(w);
  }
  const refspec = operands[1];
  if (refspec?.startsWith('+')) force = true;
  return {
    force,
    ...(operands[0] !== undefined ? { remote: operands[0] } : {}),
    ...(refspec !== undefined ? { refspec: refspec.replace(/^\+/, '') } : {}),
  };
}

/** Names git would take as options or revision syntax are refused (they reach git's argv). */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/@-]*$/;

/**
 * What a push would send, from the call's repository: the remote's URL, the branch, and the
 * commits no remote-tracking branch of that remote has (what `git log` shows the remote
 * lacks, as far as the last fetch knows; the remote itself is never contacted), with their
 * diffstat. Every git command is read-only and neutralised (safe-git.ts).
 */
export async function pushPicture(
  cwd: string,
  target: PushTarget,
  limits: GitLimits = GIT_LIMITS,
): Promise<PushPicture> {
  const git = (args: readonly string[]) => safeGit(cwd, args, limits);
  const left: string[] = [];
  let remote = target.remote;
  const [src, dst] = (target.refspec ?? '').split(':');
  let branch = src || undefined;
  if (branch === undefined || branch === 'HEAD') {
    const head = await git(['symbolic-ref', '--quiet', '--short', 'HEAD']);
    branch = head.ok ? head.out.trim() || undefined : undefined;
  }
  if (remote === undefined && branch !== undefined && SAFE_NAME.test(branch)) {
    const upstream = await git(['config', '--get', `branch.${branch}.remote`]);
    if (upstream.ok) remote = upstream.out.trim() || undefined;
  }
  remote ??= 'origin';
  const start = {
    remote,
    force: target.force,
    cwd,
    ...(branch !== undefined ? { branch } : {}),
  };
  if (!SAFE_NAME.test(remote) || (branch !== undefined && !SAFE_NAME.test(branch)))
    return {
      ...start,
      commits: [],
      commitCount: 0,
      omitted: 'an unusual remote or branch name: not read',
    };
  const url = await git(['remote', 'get-url', '--', remote]);
  const withUrl = url.ok ? { ...start, url: url.out.trim() } : start;
  if (branch === undefined)
    return {
      ...withUrl,
      commits: [],
      commitCount: 0,
      omitted: 'no branch to push (detached HEAD?)',
    };
  const dstName = dst || branch;
  // What the remote lacks, as far as its remote-tracking branches show.
  const range = [branch, '--not', `--remotes=${remote}`, '--'];
  const count = await git(['rev-list', '--count', ...range]);
  if (!count.ok)
    return { ...withUrl, commits: [], commitCount: 0, omitted: `git failed: ${count.error}` };
  const commitCount = Number(count.out.trim()) || 0;
  const log = await git([
    'log',
    '--no-color',
    `--max-count=${MAX_LISTED_COMMITS}`,
    '--format=%H%x09%an%x09%s',
    ...range,
  ]);
  const commits: PushCommit[] = log.ok ? parseLog(log.out) : [];
  if (!log.ok) left.push(`git log failed: ${log.error}`);
  if (commitCount > commits.length)
    left.push(`${commitCount - commits.length} older commits not listed`);
  const head = await git(['rev-parse', '--verify', '--quiet', `${branch}^{commit}`]);
  const tip = head.ok ? head.out.trim() : undefined;
  let diffstat: string | undefined;
  let base: string | undefined;
  if (commitCount > 0 && tip !== undefined) {
    // The stat against where the remote's branch is; for a branch the remote has no
    // tracking branch of, against where its commits leave what any remote has.
    const tracking = `refs/remotes/${remote}/${dstName}`;
    const known = await git(['rev-parse', '--verify', '--quiet', `${tracking}^{commit}`]);
    if (known.ok) base = known.out.trim();
    else base = await newBranchBase(git, tip, remote, commitCount, left);
    if (base !== undefined) {
      const stat = await git(['diff', '--no-color', '--stat=100', ...diffRange(base, tip), '--']);
      if (stat.ok) diffstat = cut(stat.out.trimEnd(), left);
      else left.push(`git diff failed: ${stat.error}`);
    }
  }
  return {
    ...withUrl,
    commits,
    commitCount,
    ...(diffstat !== undefined ? { diffstat } : {}),
    ...(tip !== undefined ? { head: tip } : {}),
    ...(base !== undefined ? { base } : {}),
    ...(left.length ? { omitted: left.join('; ') } : {}),
  };
}

/** Git's empty tree: the base of a push whose every commit is new to every remote. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The most new commits walked to find where a new branch leaves the remotes' history. */
const MAX_BOUNDARY_WALK = 2000;

/**
 * Where a branch the remote has no tracking branch of leaves what the remote has: the one
 * commit its new commits start from (`rev-list --boundary` of the commits on none of the
 * remote's refs), or the empty tree when every commit is new. Several such commits (a merge of two
 * histories) or too many to walk leave the diffstat out, and say so.
 */
async function newBranchBase(
  git: (args: readonly string[]) => Promise<GitOutcome>,
  tip: string,
  remote: string,
  commitCount: number,
  left: string[],
): Promise<string | undefined> {
  if (commitCount > MAX_BOUNDARY_WALK) {
    left.push(`a new branch of ${commitCount} commits: diffstat not computed`);
    return undefined;
  }
  const walk = await git(['rev-list', '--boundary', tip, '--not', `--remotes=${remote}`, '--']);
  if (!walk.ok) {
    left.push(`git rev-list failed: ${walk.error}`);
    return undefined;
  }
  const edges = walk.out
    .split('\n')
    .filter((l) => l.startsWith('-'))
    .map((l) => l.slice(1).trim());
  if (edges.length === 0) return EMPTY_TREE;
  if (edges.length === 1) return edges[0];
  left.push("a new branch joining the remotes' history at several commits: diffstat not computed");
  return undefined;
}

/** The revisions `git diff` compares: from where the branch left the base to the tip. */
export function diffRange(base: string, head: string): string[] {
  return base === EMPTY_TREE ? [base, head] : [`${base}...${head}`];
}

function parseLog(out: string): PushCommit[] {
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [sha = '', author = '', ...subject] = l.split('\t');
      return { sha, author, subject: subject.join('\t') };
    });
}

function cut(text: string, left: string[]): string {
  if (text.length <= MAX_DIFFSTAT_CHARS) return text;
  left.push('the diffstat is cut');
  return text.slice(0, MAX_DIFFSTAT_CHARS);
}
