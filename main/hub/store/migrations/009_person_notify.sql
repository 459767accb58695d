-- Per-person notifications: where the hub tells each person (their own ntfy topic, mail
-- address or webhook among the hub's channels) and after how long it reminds them, and which
-- requests each person was told of or reminded about (once each, whichever replica sends).
CREATE TABLE person_notify (
  person_id  TEXT PRIMARY KEY REFERENCES people (person_id),
  prefs      JSONB NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE person_notified (
  machine_id TEXT NOT NULL REFERENCES machines (machine_id),
  request_id TEXT NOT NULL,
  person_id  TEXT NOT NULL REFERENCES people (person_id),
  kind       TEXT NOT NULL CHECK (kind IN ('new', 'reminder')),
  sent_at    BIGINT NOT NULL,
  PRIMARY KEY (machine_id, request_id, person_id, kind)
);
