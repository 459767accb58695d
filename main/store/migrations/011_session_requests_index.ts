import type { Migration } from './migration';

/**
 * A session's requests through an index of their own (`requests_by_session`, the request
 * key as its tail), so a session's page of requests and its count cost the same for a
 * session of ten requests or of a hundred thousand, however many other sessions filed since.
 * Until now they were found by walking keys from `sessions.requests_from`: every
 * request filed by any session after this one started, read whole and filtered.
 */
export const migration011: Migration = {
  version: 11,
  name: 'session-requests-index',
  up(db) {
    db.exec('CREATE INDEX requests_by_session ON requests(session_id)');
  },
};
