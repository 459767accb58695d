import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import type { AdminHandlers } from './admin-handlers';
import type { AuditReadStore } from './kernel-store';

/** A time given as text (ISO 8601); one that does not parse is refused, not ignored. */
function timeParam(name: string, text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw new GatehouseError(ErrorCode.InvalidParams, `${name}: "${text}" is not a date`);
  return ms;
}

/** The admin method that reads the audit trail, a page at a time. */
export function auditAdmin(
  store: Pick<AuditReadStore, 'pageAudit'>,
  /** Writes what the engine still holds in memory for the trail (classification counts). */
  beforeRead: () => void = () => {},
) {
  return {
    'audit.query': (p) => {
      beforeRead();
      const { since, until, ...rest } = p;
      const { items, ...page } = store.pageAudit({
        ...rest,
        ...(since ? { sinceMs: timeParam('since', since) } : {}),
        ...(until ? { untilMs: timeParam('until', until) } : {}),
      });
      return { events: items, ...page };
    },
  } satisfies AdminHandlers<'audit.query'>;
}
