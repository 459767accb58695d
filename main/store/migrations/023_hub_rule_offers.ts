import type { Migration } from './migration';

/**
 * The rules a machine offers with a request it publishes (main/hub-link/rule-offers.ts):
 * `hub_outbox.offers` holds them (JSON) for a `request.asked` entry until the hub has them.
 */
export const migration023: Migration = {
  version: 23,
  name: 'hub-rule-offers',
  up(db) {
    db.exec('ALTER TABLE hub_outbox ADD COLUMN offers TEXT');
  },
};
