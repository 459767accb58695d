import type Database from 'better-sqlite3';
import type { AuditEvent } from '../../shared/domain';
import type { AuditInput, AuditQuery } from '../engine/store-port';
import { orUndefined } from './row-mapping';

type Raw = Record<string, unknown>;

/** The append-only audit log: every state change, with its evidence. */
export class AuditRepository {
  private readonly insertStmt;

  constructor(private readonly db: Database.Database) {
    this.insertStmt =
      db.prepare(`INSERT INTO audit (at, type, session_id, agent, request_id, data_json)
      VALUES (?, ?, ?, ?, ?, ?)`);
  }

  append(e: AuditInput): number {
    const info = this.insertStmt.run(
      e.at,
      e.type,
      e.sessionId ?? null,
      e.agent ?? null,
      e.requestId ?? null,
      JSON.stringify(e.data),
    );
    return Number(info.lastInsertRowid);
  }

  query(q: AuditQuery): AuditEvent[] {
    const where: string[] = [];
    const args: Record<string, unknown> = { limit: q.limit };
    const add = (sql: string, key: string, value: unknown): void => {
      if (value === undefined) return;
      where.push(sql);
      args[key] = value;
    };
    add('type = @type', 'type', q.type);
    add('session_id = @sessionId', 'sessionId', q.sessionId);
    add('agent = @agent', 'agent', q.agent);
    add('request_id = @requestId', 'requestId', q.requestId);
    add('at >= @since', 'since', q.sinceMs);
    add('seq > @afterSeq', 'afterSeq', q.afterSeq);
    const sql = `SELECT * FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY seq DESC LIMIT @limit`;
    return (this.db.prepare(sql).all(args) as Raw[]).map((r) => ({
      seq: r.seq as number,
      at: new Date(r.at as number).toISOString(),
      type: r.type as string,
      sessionId: orUndefined(r.session_id as string | null),
      agent: orUndefined(r.agent as string | null),
      requestId: orUndefined(r.request_id as string | null),
      data: JSON.parse(r.data_json as string) as Record<string, unknown>,
    }));
  }
}
