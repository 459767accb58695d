import type { Migration } from './migration';

/**
 * Lets a request stand as its own audit entry. A request that policy, a grant or the
 * automation ladder settles as it is filed never changes again, so the row already holds
 * everything its `request.filed` entry would copy; it now carries that entry's place in the
 * audit sequence instead (`audit_seq`), and the audit trail reads it from there. That spares
 * an auto-approved request a second row, and its commit the audit table's pages.
 *
 * Older requests keep their entries in the audit table and leave `audit_seq` empty.
 */
export const migration005: Migration = {
  version: 5,
  name: 'request-audit-seq',
  up(db) {
    db.exec('ALTER TABLE requests ADD COLUMN audit_seq INTEGER');
  },
};
