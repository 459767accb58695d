import { maskInput } from '../../../shared/request-picture/mask-input';
import type { Migration } from './migration';

type Context = { toolInput?: unknown } & Record<string, unknown>;

/** The context with its kept tool input masked, or undefined when there is nothing to mask. */
function masked(context: Context): Context | undefined {
  const input = context.toolInput;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const hidden = maskInput(input as Record<string, unknown>);
  return JSON.stringify(hidden) === JSON.stringify(input)
    ? undefined
    : { ...context, toolInput: hidden };
}

/**
 * Requests filed before the tool input kept for editing was stored masked: their copy is masked
 * now, as new ones are (tool-gate.ts), and so are the copies still waiting in the hub outbox.
 * Audit entries are left as they are: the audit is hash-chained, and rewriting it would break
 * the chain its checkpoints sign.
 */
export const migration022: Migration = {
  version: 22,
  name: 'masked-tool-inputs',
  up(db) {
    const rows = db
      .prepare(
        `SELECT request_key AS k, context_json AS c FROM requests WHERE context_json LIKE '%"toolInput"%'`,
      )
      .all() as { k: number; c: string }[];
    const update = db.prepare('UPDATE requests SET context_json = ? WHERE request_key = ?');
    for (const r of rows) {
      const next = masked(JSON.parse(r.c) as Context);
      if (next) update.run(JSON.stringify(next), r.k);
    }
    const entries = db
      .prepare(`SELECT seq, body FROM hub_outbox WHERE body LIKE '%"toolInput"%'`)
      .all() as { seq: number; body: string }[];
    const rewrite = db.prepare('UPDATE hub_outbox SET body = ? WHERE seq = ?');
    for (const e of entries) {
      const record = JSON.parse(e.body) as { context?: Context };
      const next = record.context && masked(record.context);
      if (next) rewrite.run(JSON.stringify({ ...record, context: next }), e.seq);
    }
  },
};
