import { notFound } from '../../../shared/protocol/errors';
import type { PolicyTrustStore, PolicySeenRow, PolicyTrustRow } from './policy-store';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { ProjectPolicy, ProjectPolicyFile } from './project-policy';
import { promotesAnything, summarisePolicy, type ProjectTrust } from './project-trust';

const asProjectPolicy = (row: PolicyTrustRow): ProjectPolicy => ({
  file: row.file,
  dir: row.projectDir,
  sha256: row.sha256,
  policy: row.policy,
});

const noticeKey = (dir: string, sha256: string): string => `${dir}\u0000${sha256}`;

/** What the person trusts, as `trust.add` records it. */
export interface TrustInput {
  projectDir: string;
  file: string;
  sha256: string;
  policy: ProjectPolicyFile;
  /** The channel the person used (cli, dashboard, desktop, socket). */
  via: string;
}

/**
 * Which project policy files the person trusts (by content hash), which ones sessions have
 * used, and which untrusted contents the person was already told about. The maps are caches
 * of the store; each changes only after the transaction that wrote it commits, so a failed
 * commit leaves behaviour exactly as before.
 */
export class PolicyTrustBook {
  private readonly trusted = new Map<string, PolicyTrustRow>();
  private readonly seen = new Map<string, PolicySeenRow>();
  private readonly notices = new Set<string>();
  /** Notices being written in a batch not yet committed: not told twice in one turn. */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly store: PolicyTrustStore,
    private readonly work: UnitOfWork,
  ) {
    for (const r of store.listPolicyTrust()) this.trusted.set(r.projectDir, r);
    for (const r of store.listPolicySeen()) this.seen.set(r.projectDir, r);
    for (const n of store.listPolicyTrustNotices())
      this.notices.add(noticeKey(n.projectDir, n.sha256));
  }

  /** Whether the person trusts exactly this content of the project's policy file. */
  trustOf(pp: ProjectPolicy): ProjectTrust {
    const row = this.trusted.get(pp.dir);
    if (!row) return 'untrusted';
    return row.sha256 === pp.sha256 ? 'trusted' : 'edited';
  }

  /**
   * The policy the person trusted for the project, when the file now holds other content:
   * its restrictions still apply, so that an edit can take nothing away that the person set.
   */
  trustedPolicyIfEdited(current: ProjectPolicy): ProjectPolicy | undefined {
    const row = this.trusted.get(current.dir);
    return row && row.sha256 !== current.sha256 ? asProjectPolicy(row) : undefined;
  }

  /** The policy the person trusted for a project (used when its file has gone). */
  trustedPolicyFor(projectDir: string): ProjectPolicy | undefined {
    const row = this.trusted.get(projectDir);
    return row ? asProjectPolicy(row) : undefined;
  }

  /** The trusted content of a project, if any. */
  trustedFor(projectDir: string): PolicyTrustRow | undefined {
    return this.trusted.get(projectDir);
  }

  /** The content of a project's policy file a session last used, if any. */
  seenFor(projectDir: string): PolicySeenRow | undefined {
    return this.seen.get(projectDir);
  }

  listTrusted(): PolicyTrustRow[] {
    return [...this.trusted.values()];
  }

  listSeen(): PolicySeenRow[] {
    return [...this.seen.values()];
  }

  /**
   * A session used this policy file. Remembers it (so the person can review it), and when
   * the content is not trusted but would promote actions, or was edited since it was
   * trusted, tells the person once per (project, content): an audit entry and a
   * `policy.untrusted` event the notifier shows.
   */
  observe(pp: ProjectPolicy, who: { sessionId: string; agent: string }): void {
    const trust = this.trustOf(pp);
    const last = this.seen.get(pp.dir);
    const seenNew = !last || last.sha256 !== pp.sha256 || last.file !== pp.file;
    const key = noticeKey(pp.dir, pp.sha256);
    const untrusted = trust === 'trusted' ? undefined : trust;
    const tell =
      untrusted !== undefined &&
      (untrusted === 'edited' || promotesAnything(pp)) &&
      !this.notices.has(key);
    if ((!seenNew && !tell) || this.inFlight.has(key)) return;
    this.inFlight.add(key);
    const settled = () => void this.inFlight.delete(key);
    try {
      this.work.run((u) => {
        const row: PolicySeenRow = {
          projectDir: pp.dir,
          file: pp.file,
          sha256: pp.sha256,
          seenAt: u.now,
        };
        if (seenNew) this.store.upsertPolicySeen(row);
        if (tell && untrusted && this.store.insertPolicyTrustNotice(pp.dir, pp.sha256, u.now)) {
          const allows = summarisePolicy(pp).allows;
          u.audit('policy.untrusted', {
            sessionId: who.sessionId,
            agent: who.agent,
            data: { project: pp.dir, file: pp.file, sha256: pp.sha256, trust: untrusted, allows },
          });
          u.publish({
            type: 'policy.untrusted',
            project: pp.dir,
            file: pp.file,
            sha256: pp.sha256,
            trust: untrusted,
            allows,
            sessionId: who.sessionId,
            agent: who.agent,
          });
        }
        u.afterCommit(() => {
          if (seenNew) this.seen.set(pp.dir, row);
          if (tell) this.notices.add(key);
        });
      });
    } catch (error) {
      settled();
      throw error;
    }
    this.work.whenDurable(settled, settled);
  }

  /** Trusts exactly this content for the project (replacing what was trusted before). */
  trust(input: TrustInput): PolicyTrustRow {
    return this.work.run((u) => {
      const row: PolicyTrustRow = {
        projectDir: input.projectDir,
        file: input.file,
        sha256: input.sha256,
        trustedAt: u.now,
        trustedVia: input.via,
        policy: input.policy,
      };
      this.store.upsertPolicyTrust(row);
      const { policy: _policy, ...summary } = row;
      u.audit('policy.trusted', {
        data: { ...summary, allows: summarisePolicy(asProjectPolicy(row)).allows },
      });
      u.publish({
        type: 'policy.trust_changed',
        project: row.projectDir,
        trusted: true,
        sha256: row.sha256,
      });
      u.afterCommit(() => void this.trusted.set(row.projectDir, row));
      return row;
    });
  }

  /** Withdraws trust from a project's policy file; only its restrictions apply afterwards. */
  untrust(projectDir: string, via: string): void {
    this.work.run((u) => {
      if (!this.store.deletePolicyTrust(projectDir))
        throw notFound(`trusted policy for ${projectDir}`);
      u.audit('policy.trust_removed', { data: { projectDir, via } });
      u.publish({ type: 'policy.trust_changed', project: projectDir, trusted: false });
      u.afterCommit(() => void this.trusted.delete(projectDir));
    });
  }
}
