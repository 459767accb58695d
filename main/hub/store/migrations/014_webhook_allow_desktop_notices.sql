-- The webhook allow-list the hub admin keeps (one row, shared by every replica): which
-- origins, host patterns and addresses a person's own webhook may name. And which desktop
-- notices of waiting requests reached which of a person's machines (once per machine and
-- request and kind, whichever replica sends it: live, or when the machine links later).
CREATE TABLE hub_webhook_allow (
  id         INT PRIMARY KEY CHECK (id = 1),
  entries    JSONB NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE desktop_notices (
  to_machine_id TEXT NOT NULL REFERENCES machines (machine_id),
  machine_id    TEXT NOT NULL REFERENCES machines (machine_id),
  request_id    TEXT NOT NULL,
  kind          TEXT NOT NULL CHECK (kind IN ('new', 'reminder')),
  notice        JSONB NOT NULL,
  queued_at     BIGINT NOT NULL,
  sent_at       BIGINT,
  PRIMARY KEY (to_machine_id, machine_id, request_id, kind)
);
CREATE INDEX desktop_notices_due ON desktop_notices (to_machine_id) WHERE sent_at IS NULL;
