-- Notifications from the hub: the channels the hub admin set (one row, shared by every
-- replica) and which requests were notified already (so two replicas never send one twice).
CREATE TABLE hub_notify_config (
  id         INT PRIMARY KEY CHECK (id = 1),
  config     JSONB NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE hub_notified (
  machine_id  TEXT NOT NULL REFERENCES machines (machine_id),
  request_id  TEXT NOT NULL,
  notified_at BIGINT NOT NULL,
  PRIMARY KEY (machine_id, request_id)
);
