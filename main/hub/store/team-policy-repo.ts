import { TeamRule, type ShadowRecord } from '../../../shared/policy/team-policy';
import { num, type Sql } from './sql';

/** Held while publishing, so that two publishes on two replicas never take one version. */
const PUBLISH_LOCK = 7_230_023_007;

export interface BundleRow {
  version: number;
  payload: string;
  signature: string;
  publishedAt: number;
  publishedBy: string;
}

export async function insertTeamRule(sql: Sql, rule: TeamRule, now: number): Promise<void> {
  await sql.query(
    'INSERT INTO team_rules (rule_id, rule, created_at, updated_at) VALUES ($1, $2, $3, $3)',
    [rule.ruleId, rule, now],
  );
}

export async function updateTeamRule(sql: Sql, rule: TeamRule, now: number): Promise<boolean> {
  const rows = await sql.query(
    'UPDATE team_rules SET rule = $2, updated_at = $3 WHERE rule_id = $1 RETURNING rule_id',
    [rule.ruleId, rule, now],
  );
  return rows.length > 0;
}

export async function deleteTeamRule(sql: Sql, ruleId: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM team_rules WHERE rule_id = $1 RETURNING rule_id', [
    ruleId,
  ]);
  return rows.length > 0;
}

/** The rules as an admin edits them (not yet published), oldest first. */
export async function listTeamRules(sql: Sql): Promise<TeamRule[]> {
  const rows = await sql.query<{ rule: unknown }>(
    'SELECT rule FROM team_rules ORDER BY created_at, rule_id',
  );
  return rows.map((r) => TeamRule.parse(r.rule));
}

/** Takes the publish lock for the caller's transaction. */
export async function lockPublishing(sql: Sql): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1)', [PUBLISH_LOCK]);
}

export async function insertBundle(sql: Sql, b: BundleRow): Promise<void> {
  await sql.query(
    `INSERT INTO team_policy_bundles (version, payload, signature, published_at, published_by)
     VALUES ($1, $2, $3, $4, $5)`,
    [b.version, b.payload, b.signature, b.publishedAt, b.publishedBy],
  );
}

interface BundleDbRow {
  version: number;
  payload: string;
  signature: string;
  published_at: string | number;
  published_by: string;
}

/** The newest bundle published, or undefined before the first publish. */
export async function latestBundle(sql: Sql): Promise<BundleRow | undefined> {
  const [row] = await sql.query<BundleDbRow>(
    'SELECT * FROM team_policy_bundles ORDER BY version DESC LIMIT 1',
  );
  return row
    ? {
        version: num(row.version),
        payload: row.payload,
        signature: row.signature,
        publishedAt: num(row.published_at),
        publishedBy: row.published_by,
      }
    : undefined;
}

/** Stores a machine's shadow records; one sent again (a lost acknowledgement) is kept once. */
export async function storeShadowRecords(
  sql: Sql,
  machineId: string,
  records: readonly ShadowRecord[],
): Promise<void> {
  for (const r of records)
    await sql.query(
      `INSERT INTO team_shadow_records
         (machine_id, record_id, rule_id, version, action, would, actual, summary, agent, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (machine_id, record_id) DO NOTHING`,
      [
        machineId,
        r.id,
        r.ruleId,
        r.version,
        r.action,
        r.would,
        r.actual,
        r.summary,
        r.agent ?? null,
        r.at,
      ],
    );
}

export interface ShadowCount {
  ruleId: string;
  would: string;
  actual: string;
  count: number;
  machines: number;
}

export interface ShadowExample {
  ruleId: string;
  machine: string;
  would: string;
  actual: string;
  action: string;
  summary: string;
  agent?: string;
  at: number;
}

/** What the shadow rules would have changed since `since`: counts by outcome, and examples. */
export async function shadowReport(
  sql: Sql,
  o: { ruleId?: string; since: number; examples: number },
): Promise<{ counts: ShadowCount[]; examples: ShadowExample[] }> {
  const counts = await sql.query<{
    rule_id: string;
    would: string;
    actual: string;
    count: string | number;
    machines: string | number;
  }>(
    `SELECT rule_id, would, actual, COUNT(*) AS count, COUNT(DISTINCT machine_id) AS machines
     FROM team_shadow_records WHERE at >= $1 AND ($2::text IS NULL OR rule_id = $2)
     GROUP BY rule_id, would, actual ORDER BY rule_id, would, actual`,
    [o.since, o.ruleId ?? null],
  );
  const examples = await sql.query<{
    rule_id: string;
    name: string;
    would: string;
    actual: string;
    action: string;
    summary: string;
    agent: string | null;
    at: string | number;
  }>(
    `SELECT s.rule_id, m.name, s.would, s.actual, s.action, s.summary, s.agent, s.at
     FROM team_shadow_records s JOIN machines m USING (machine_id)
     WHERE s.at >= $1 AND ($2::text IS NULL OR s.rule_id = $2)
     ORDER BY s.at DESC, m.name, s.record_id DESC LIMIT $3`,
    [o.since, o.ruleId ?? null, o.examples],
  );
  return {
    counts: counts.map((c) => ({
      ruleId: c.rule_id,
      would: c.would,
      actual: c.actual,
      count: num(c.count),
      machines: num(c.machines),
    })),
    examples: examples.map((e) => ({
      ruleId: e.rule_id,
      machine: e.name,
      would: e.would,
      actual: e.actual,
      action: e.action,
      summary: e.summary,
      ...(e.agent !== null ? { agent: e.agent } : {}),
      at: num(e.at),
    })),
  };
}

/** Notes the team policy version a machine runs (it said so at connect, or took a bundle). */
export async function setMachineTeamVersion(
  sql: Sql,
  machineId: string,
  version: number,
): Promise<void> {
  await sql.query('UPDATE machines SET team_policy_version = $2 WHERE machine_id = $1', [
    machineId,
    version,
  ]);
}

/** Each machine not revoked, with the team policy version it runs (0: none, or not said yet). */
export async function machineTeamVersions(sql: Sql): Promise<{ name: string; version: number }[]> {
  const rows = await sql.query<{ name: string; team_policy_version: number | null }>(
    'SELECT name, team_policy_version FROM machines WHERE revoked_at IS NULL ORDER BY name',
  );
  return rows.map((r) => ({ name: r.name, version: num(r.team_policy_version ?? 0) }));
}
