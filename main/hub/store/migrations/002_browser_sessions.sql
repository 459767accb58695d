-- Browser sessions of people on the team dashboard. A sign-in link is spent once for one
-- session; the session's random id travels only in its cookie and is kept here by its hash,
-- so every replica accepts it and a copy of the database signs nobody in.
CREATE TABLE browser_sessions (
  session_hash TEXT PRIMARY KEY,
  person_id    TEXT NOT NULL REFERENCES people (person_id),
  created_at   BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL,
  ended_at     BIGINT
);
CREATE INDEX browser_sessions_person ON browser_sessions (person_id);

-- Until when a machine counts as online: each replica renews it for the machines linked to
-- it (a heartbeat), and clears it when a link closes. A replica killed outright stops
-- renewing, so its machines fall offline within one window without anyone cleaning up.
ALTER TABLE machines ADD COLUMN online_until BIGINT;
