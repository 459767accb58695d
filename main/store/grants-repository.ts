import type Database from 'better-sqlite3';
import type { RuleMatchers } from '../../shared/domain';
import type { GrantRecord } from '../engine/requests/requests-store';
import { orUndefined, parseJson, updateClause } from './row-mapping';
import { StatementCache } from './statement-cache';

type Raw = Record<string, unknown>;

function fromRaw(r: Raw): GrantRecord {
  return {
    grantId: r.grant_id as string,
    agent: r.agent as string,
    sessionId: orUndefined(r.session_id as string | null),
    action: r.action as string,
    fingerprint: orUndefined(r.fingerprint as string | null),
    matchers: parseJson<RuleMatchers>(r.matchers_json as string | null),
    usesLeft: orUndefined(r.uses_left as number | null),
    expiresAt: orUndefined(r.expires_at as number | null),
    maxSpendUsd: orUndefined(r.max_spend_usd as number | null),
    spentUsd: (r.spent_usd as number | null) ?? 0,
    sourceRequestId: r.source_request_id as string,
    kind: r.kind as GrantRecord['kind'],
    createdAt: r.created_at as number,
    endedAt: orUndefined(r.ended_at as number | null),
  };
}

/** Grants: approvals that cover later identical actions (late approvals, sessions, envelopes). */
export class GrantsRepository {
  private readonly insertStmt;
  private readonly liveStmt;
  private readonly liveForAgentStmt;
  private readonly inForceStmt;
  private readonly getStmt;

  /** The partial updates' statements, one per set of changed columns. */
  private readonly updates: StatementCache;

  constructor(private readonly db: Database.Database) {
    this.updates = new StatementCache(db);
    this.insertStmt =
      db.prepare(`INSERT INTO grants (grant_id, agent, session_id, action, fingerprint,
      matchers_json, uses_left, expires_at, max_spend_usd, spent_usd, source_request_id, kind,
      created_at, ended_at)
      VALUES (@grantId, @agent, @sessionId, @action, @fingerprint, @matchersJson, @usesLeft,
      @expiresAt, @maxSpendUsd, @spentUsd, @sourceRequestId, @kind, @createdAt, @endedAt)`);
    this.liveStmt = db.prepare(
      'SELECT * FROM grants WHERE agent = ? AND action = ? AND ended_at IS NULL ORDER BY created_at',
    );
    this.liveForAgentStmt = db.prepare(
      'SELECT * FROM grants WHERE agent = ? AND ended_at IS NULL ORDER BY created_at',
    );
    // Through grants_live (partial: ended grants are not in it).
    this.inForceStmt = db.prepare(
      `SELECT * FROM grants WHERE ended_at IS NULL AND (expires_at IS NULL OR expires_at > @now)
       AND (@agent IS NULL OR agent = @agent) ORDER BY created_at DESC, grant_id DESC LIMIT @limit`,
    );
    this.getStmt = db.prepare('SELECT * FROM grants WHERE grant_id = ?');
  }

  insertGrant(g: GrantRecord): void {
    const { matchers, ...rest } = g;
    this.insertStmt.run({
      ...rest,
      matchersJson: matchers ? JSON.stringify(matchers) : null,
      sessionId: g.sessionId ?? null,
      fingerprint: g.fingerprint ?? null,
      usesLeft: g.usesLeft ?? null,
      expiresAt: g.expiresAt ?? null,
      maxSpendUsd: g.maxSpendUsd ?? null,
      endedAt: g.endedAt ?? null,
    });
  }

  updateGrant(grantId: string, patch: Partial<GrantRecord>): void {
    const { sql, values } = updateClause(patch);
    if (!sql) return;
    this.updates
      .get(`UPDATE grants SET ${sql} WHERE grant_id = @__id`)
      .run({ ...values, __id: grantId });
  }

  listLiveGrants(agent: string, action: string): GrantRecord[] {
    return (this.liveStmt.all(agent, action) as Raw[]).map(fromRaw);
  }

  listLiveGrantsForAgent(agent: string): GrantRecord[] {
    return (this.liveForAgentStmt.all(agent) as Raw[]).map(fromRaw);
  }

  getGrant(grantId: string): GrantRecord | undefined {
    const row = this.getStmt.get(grantId) as Raw | undefined;
    return row ? fromRaw(row) : undefined;
  }

  listGrantsInForce(now: number, limit: number, agent?: string): GrantRecord[] {
    return (this.inForceStmt.all({ now, limit, agent: agent ?? null }) as Raw[]).map(fromRaw);
  }
}
