import { statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { entriesOf } from '../shared/node/folder-entries';
import { commonGitDir, ownGitDir } from '../shared/node/git-config-includes';
import { repositoryTop } from '../shared/node/git-hooks-path';
import type { HistorySecret } from './engine/policy/path-port';
import { safeGit, safeGitSync, type GitLimits, type GitOutcome } from './picture/safe-git';

/**
 * The secret files (by name) a repository's history has held: a `.env` committed once and
 * removed since is still in git's objects, and `git log -p` prints its lines. Read with git
 * itself, neutralised (safe-git.ts): the paths every commit reachable from a ref or a reflog
 * added, changed or removed (`git log --all --reflog --name-only`), kept while the refs stay
 * as they were. The engine's checks answer at once, so the first read of a repository blocks,
 * for at most {@link SYNC_LIMITS}'s time (and so does a read after the refs change: an answer
 * a second out of date would let the next `git log -p` print a secret just committed); a
 * repository that takes longer (or took longer last time), or past the blocking reads'
 * budget, is read in the background, its last answer used meanwhile, and while none is known
 * its history counts as unread (the caller asks).
 */
export interface HistorySecretsOptions {
  /** Whether a file (absolute, where it would be in the working tree) is a secret by name. */
  isSecret(path: string): boolean;
  /** Whether git's index lists a file (absolute) now (shared/node/git-index.ts). */
  isTracked?(path: string): boolean;
  /** The blocking read's limits; one that runs past them is done in the background. */
  syncLimits?: GitLimits;
  /** The blocking reads' time a minute, all repositories together (default 3 s). */
  syncBudgetMs?: number;
  /** The background read's limits. */
  asyncLimits?: GitLimits;
}

export const SYNC_LIMITS: GitLimits = { timeoutMs: 1000, maxOutputBytes: 64 * 1024 * 1024 };
const ASYNC_LIMITS: GitLimits = { timeoutMs: 120_000, maxOutputBytes: 256 * 1024 * 1024 };
/** Blocking reads take at most this much time a minute, all repositories together. */
const SYNC_BUDGET_MS = 3000;
/** Background reads at once. */
const BACKGROUND_READS = 2;
/** Repositories whose answers are kept. */
const MAX_REPOSITORIES = 512;
/** At most this many ref files are looked at for the stamp; past it, every call rereads. */
const MAX_REFS = 4096;

const SCAN = [
  'log',
  '--all',
  '--reflog',
  '--root',
  '--format=',
  '--name-only',
  '--no-renames',
  '-z',
];

interface Scan {
  stamp: string;
  /** The history's secret files, absolute; undefined when it could not be read. */
  secrets?: string[];
  error?: string;
  tookMs: number;
}

export function createHistorySecrets(
  o: HistorySecretsOptions,
): (dir: string, pathspecs: readonly string[], tracked?: boolean) => HistorySecret | undefined {
  const syncLimits = o.syncLimits ?? SYNC_LIMITS;
  const asyncLimits = o.asyncLimits ?? ASYNC_LIMITS;
  const scans = new Map<string, Scan>();
  const running = new Set<string>();

  const secretsOf = (top: string, out: GitOutcome, stamp: string, tookMs: number): Scan => {
    if (!out.ok) return { stamp, error: out.error, tookMs };
    const secrets = new Set<string>();
    for (const name of out.out.split('\0')) {
      const path = name.replace(/^\n+/, '');
      if (path && o.isSecret(join(top, path))) secrets.add(join(top, path));
    }
    return { stamp, secrets: [...secrets], tookMs };
  };

  const keep = (top: string, scan: Scan): void => {
    if (scans.size >= MAX_REPOSITORIES && !scans.has(top)) scans.delete(scans.keys().next().value!);
    scans.set(top, scan);
  };

  // At most BACKGROUND_READS at once; the rest wait their turn (the newest stamp each).
  const waiting = new Map<string, string>();
  const inBackground = (top: string, stamp: string): void => {
    if (running.has(top)) return;
    if (running.size >= BACKGROUND_READS) {
      waiting.set(top, stamp);
      return;
    }
    running.add(top);
    const start = performance.now();
    void safeGit(top, SCAN, asyncLimits).then((out) => {
      running.delete(top);
      keep(top, secretsOf(top, out, stamp, performance.now() - start));
      const next = waiting.entries().next().value;
      if (next) {
        waiting.delete(next[0]);
        inBackground(...next);
      }
    });
  };

  // The blocking reads' time in the last minute: past SYNC_BUDGET_MS (an agent making many
  // repositories with large histories), the next are read in the background.
  let spent: { at: number; ms: number }[] = [];
  const budgetLeft = (): boolean => {
    const now = performance.now();
    spent = spent.filter((s) => now - s.at < 60_000);
    return spent.reduce((sum, s) => sum + s.ms, 0) < (o.syncBudgetMs ?? SYNC_BUDGET_MS);
  };

  const scanOf = (top: string): Scan => {
    // Read on every call (a few stats): a stamp kept even a second would miss a commit.
    const stamp = refsStamp(top) ?? '';
    const last = scans.get(top);
    if (last?.stamp === stamp) return last;
    if (!running.has(top) && (!last || last.tookMs < syncLimits.timeoutMs) && budgetLeft()) {
      const start = performance.now();
      const out = safeGitSync(top, SCAN, syncLimits);
      const scan = secretsOf(top, out, stamp, performance.now() - start);
      spent.push({ at: performance.now(), ms: scan.tookMs });
      if (scan.secrets || scan.tookMs < syncLimits.timeoutMs) {
        keep(top, scan);
        return scan;
      }
    }
    // Slow: read in the background; meanwhile the last answer stands, or none is known.
    inBackground(top, stamp);
    if (last?.secrets) return last;
    return { stamp, tookMs: 0, error: 'its history is larger than Gatehouse reads at once' };
  };

  return (dir, pathspecs, tracked = false) => {
    const top = repositoryTop(dir);
    if (top === undefined) return undefined;
    const scan = scanOf(top);
    if (!scan.secrets) return { unread: scan.error ?? 'git could not read it' };
    // A glob (git's wildcards and escapes) or a magic pathspec (`:/`, `:(icase)`) may match
    // any file.
    const narrowed = pathspecs.map((p) => (/[*?[\\]|^:/.test(p) ? undefined : resolve(dir, p)));
    const found = scan.secrets.find(
      (s) =>
        (narrowed.length === 0 ||
          narrowed.some((p) => p === undefined || s === p || s.startsWith(p + sep))) &&
        (!tracked || (o.isTracked?.(s) ?? true)),
    );
    return found === undefined ? undefined : { path: found };
  };
}

/**
 * What changes when a commit is made or a ref moves: the times, sizes and inodes of the
 * repository's `HEAD`, `packed-refs`, reflog of `HEAD` and every file under `refs/`.
 */
function refsStamp(top: string): string | undefined {
  const own = ownGitDir(top);
  if (own === undefined) return undefined;
  const common = commonGitDir(own);
  const parts: string[] = [];
  const add = (path: string): void => {
    try {
      const s = statSync(path, { bigint: true });
      parts.push(`${path}:${s.ino}:${s.size}:${s.mtimeNs}`);
    } catch {
      parts.push(`${path}:-`);
    }
  };
  for (const f of ['HEAD', 'logs/HEAD']) add(join(own, f));
  for (const f of ['packed-refs', 'logs/refs/stash']) add(join(common, f));
  const pending = [join(common, 'refs')];
  let seen = 0;
  while (pending.length > 0) {
    const folder = pending.pop()!;
    for (const e of entriesOf(folder)) {
      if (++seen > MAX_REFS) return `${Date.now()}:${Math.random()}`;
      const path = join(folder, e.name);
      if (e.isDirectory()) pending.push(path);
      else add(path);
    }
  }
  return parts.join('\n');
}
