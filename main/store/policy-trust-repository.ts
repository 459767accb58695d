import type Database from 'better-sqlite3';
import { ProjectPolicyFile } from '../engine/policy/project-policy';
import type { PolicySeenRow, PolicyTrustRow } from '../engine/policy/policy-store';

type Raw = Record<string, unknown>;

/** Trusted project policy files, policy files seen in use, and notices already given. */
export class PolicyTrustRepository {
  private readonly upsertTrustStmt;
  private readonly deleteTrustStmt;
  private readonly listTrustStmt;
  private readonly upsertSeenStmt;
  private readonly listSeenStmt;
  private readonly insertNoticeStmt;
  private readonly listNoticesStmt;

  constructor(db: Database.Database) {
    this.upsertTrustStmt = db.prepare(
      `INSERT INTO policy_trust (project_dir, file, sha256, trusted_at, trusted_via, policy_json)
       VALUES (@projectDir, @file, @sha256, @trustedAt, @trustedVia, @policyJson)
       ON CONFLICT (project_dir) DO UPDATE SET file = excluded.file, sha256 = excluded.sha256,
         trusted_at = excluded.trusted_at, trusted_via = excluded.trusted_via,
         policy_json = excluded.policy_json`,
    );
    this.deleteTrustStmt = db.prepare('DELETE FROM policy_trust WHERE project_dir = ?');
    this.listTrustStmt = db.prepare('SELECT * FROM policy_trust ORDER BY project_dir');
    this.upsertSeenStmt = db.prepare(
      `INSERT INTO policy_files_seen (project_dir, file, sha256, seen_at)
       VALUES (@projectDir, @file, @sha256, @seenAt)
       ON CONFLICT (project_dir) DO UPDATE SET file = excluded.file, sha256 = excluded.sha256,
         seen_at = excluded.seen_at`,
    );
    this.listSeenStmt = db.prepare('SELECT * FROM policy_files_seen ORDER BY project_dir');
    this.insertNoticeStmt = db.prepare(
      `INSERT OR IGNORE INTO policy_trust_notices (project_dir, sha256, notified_at)
       VALUES (?, ?, ?)`,
    );
    this.listNoticesStmt = db.prepare('SELECT project_dir, sha256 FROM policy_trust_notices');
  }

  upsertPolicyTrust(row: PolicyTrustRow): void {
    const { policy, ...rest } = row;
    this.upsertTrustStmt.run({ ...rest, policyJson: JSON.stringify(policy) });
  }

  deletePolicyTrust(projectDir: string): boolean {
    return this.deleteTrustStmt.run(projectDir).changes > 0;
  }

  listPolicyTrust(): PolicyTrustRow[] {
    return (this.listTrustStmt.all() as Raw[]).map((r) => ({
      projectDir: r.project_dir as string,
      file: r.file as string,
      sha256: r.sha256 as string,
      trustedAt: r.trusted_at as number,
      trustedVia: r.trusted_via as string,
      // Parsed again so that defaults added to the schema later are filled in.
      policy: ProjectPolicyFile.parse(JSON.parse(r.policy_json as string)),
    }));
  }

  upsertPolicySeen(row: PolicySeenRow): void {
    this.upsertSeenStmt.run(row);
  }

  listPolicySeen(): PolicySeenRow[] {
    return (this.listSeenStmt.all() as Raw[]).map((r) => ({
      projectDir: r.project_dir as string,
      file: r.file as string,
      sha256: r.sha256 as string,
      seenAt: r.seen_at as number,
    }));
  }

  /** Records that the person was told about this content; false when they already were. */
  insertPolicyTrustNotice(projectDir: string, sha256: string, at: number): boolean {
    return this.insertNoticeStmt.run(projectDir, sha256, at).changes > 0;
  }

  listPolicyTrustNotices(): { projectDir: string; sha256: string }[] {
    return (this.listNoticesStmt.all() as Raw[]).map((r) => ({
      projectDir: r.project_dir as string,
      sha256: r.sha256 as string,
    }));
  }
}
