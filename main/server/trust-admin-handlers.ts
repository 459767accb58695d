import { join } from 'node:path';
import { iso } from '../../shared/clock';
import type { Engine } from '../engine/engine';
import type { ProjectPolicy } from '../engine/policy/project-policy';
import { summarisePolicy } from '../engine/policy/project-trust';
import { ErrorCode, GatehouseError, notFound } from '../../shared/protocol/errors';
import type { ProjectTrustEntry } from '../../shared/protocol/trust-methods';
import { canonicalDir, PROJECT_POLICY_FILE } from '../store/project-policy-files';
import type { ExtraHandlers } from './admin-service';

/** How many untrusted projects `trust.list` shows at most (the most recently used). */
const MAX_LISTED_SEEN = 200;

/**
 * Routes the `trust.*` admin methods: which project policy files the person trusts. The file
 * is read here, in the daemon, at the moment of the call, so what is previewed and what is
 * trusted is the content on disk, and `trust.add` trusts only the hash the person was shown.
 */
export function trustAdminHandlers(engine: Engine): ExtraHandlers {
  const book = engine.policyTrust;
  const load = engine.deps.loadProjectPolicy;

  const entry = (dir: string): ProjectTrustEntry => {
    const trustedRow = book.trustedFor(dir);
    const seenRow = book.seenFor(dir);
    const base = {
      dir,
      file: join(dir, PROJECT_POLICY_FILE),
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
    if (!pp) throw notFound(`a policy file ${join(canonicalDir(dir), PROJECT_POLICY_FILE)}`);
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
    'trust.preview': (p) => ({ project: entry(policyIn(p.dir).dir) }),
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
      await engine.work.durable();
      return { project: entry(pp.dir) };
    },
    'trust.remove': (p) => {
      const dir = canonicalDir(p.dir);
      book.untrust(book.trustedFor(dir) ? dir : p.dir, p.via);
      return { removed: true as const };
    },
  };
}
