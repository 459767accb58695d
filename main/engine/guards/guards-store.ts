import type { AuditReadStore } from '../kernel/kernel-store';
import type { SessionRowsStore } from '../sessions/sessions-store';

/**
 * What the admin side of the guardrails reads besides guard state (guard-state-store.ts): a
 * breaker's session, to leave out those of ended sessions, and recent trips from the audit.
 */
export type GuardsStore = Pick<SessionRowsStore, 'getSession'> & Pick<AuditReadStore, 'queryAudit'>;
