import { iso } from '../../../shared/clock';
import type { ProjectPolicy, ProjectPolicyLoader } from './project-policy';
import type { PolicyTrustBook } from './trust-book';
import type { AdminHandlers } from '../kernel/admin-handlers';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { summarisePolicy } from './project-trust';
import { ErrorCode, GatehouseError, notFound } from '../../../shared/protocol/errors';
import type { ProjectTrustEntry } from '../../../shared/protocol/trust-methods';

/** How many untrusted projects `trust.list` shows at most (the most recently used). */
const MAX_LISTED_SEEN = 200;

/**
 * Which project policy files the person trusts. The file is read at the moment of the call,
 * so what is previewed and what is trusted is the content on disk, and `add` trusts only the
 * hash the person was shown.
 */
export interface TrustAdminDeps {
  book: PolicyTrustBook;
  load: ProjectPolicyLoader;
  work: Pick<UnitOfWork, 'durable'>;
  /** A project directory as the trust book keys it (realpath; see project-policy.ts). */
  canonicalProject: (dir: string) => string;
}

export function trustAdmin(d: TrustAdminDeps) {
  const { book, load } = d;
  const fileIn = (dir: string) => load.fileIn?.(dir) ?? `${dir}/.gatehouse.toml`;

  const entry = (dir: string): ProjectTrustEntry => {
    const trustedRow = book.trustedFor(dir);
    const seenRow = book.seenFor(dir);
    const base = {
      dir,
      file: fileIn(dir),
      ...(trustedRow
        ? {
            trustedSha256: trustedRow.sha256,
            trustedAt: iso(trustedRow.trustedAt),
            trustedVia: trustedRow.trustedVia,
          }
        : {}),
      ...(seenRow ? { seenAt: iso(seenRow.seenAt) } : {}),
    };
    let pp: ProjectPolicy | undefined;
    try {
      pp = load(dir);
    } catch (error) {
      return {
        ...base,
        state: 'invalid',
        trusted: false,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    if (!pp) return { ...base, state: 'missing', trusted: false };
    const state = book.trustOf(pp);
    return {
      ...base,
      file: pp.file,
      state,
      trusted: state === 'trusted',
      sha256: pp.sha256,
      summary: summarisePolicy(pp),
    };
  };

  /** Loads the policy of a directory the person names; a clear error when there is none. */
  const policyIn = (dir: string): ProjectPolicy => {
    const pp = load(dir);
    if (!pp) throw notFound(`a policy file ${fileIn(d.canonicalProject(dir))}`);
    return pp;
  };

  return {
    'trust.list': () => {
      // Every trusted project, and the most recently seen others: an agent that names
      // thousands of folders must not bury the ones the person trusts.
      const seen = book
        .listSeen()
        .sort((a, b) => b.seenAt - a.seenAt)
        .slice(0, MAX_LISTED_SEEN)
        .map((s) => s.projectDir);
      const dirs = new Set([...book.listTrusted().map((t) => t.projectDir), ...seen]);
      return { projects: [...dirs].sort().map((d) => entry(d)) };
    },
    'trust.preview': (p) => ({
      project: entry(policyIn(p.dir).dir),
    }),
    'trust.add': async (p) => {
      const pp = policyIn(p.dir);
      if (pp.sha256 !== p.sha256) {
        throw new GatehouseError(
          ErrorCode.InvalidParams,
          `${pp.file} changed since it was shown (its sha256 is now ${pp.sha256}); review it again before trusting it`,
          [{ path: 'sha256', message: 'does not match the file on disk' }],
        );
      }
      book.trust({
        projectDir: pp.dir,
        file: pp.file,
        sha256: pp.sha256,
        policy: pp.policy,
        via: p.via,
      });
      // The trust book changes when the commit lands; report it as it is then.
      await d.work.durable();
      return { project: entry(pp.dir) };
    },
    'trust.remove': (p) => {
      const dir = d.canonicalProject(p.dir);
      book.untrust(book.trustedFor(dir) ? dir : p.dir, p.via);
      return { removed: true as const };
    },
  } satisfies AdminHandlers<'trust.list' | 'trust.preview' | 'trust.add' | 'trust.remove'>;
}
