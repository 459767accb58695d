-- Team policy (docs/hub.md): the rules an admin sets on the hub, each bundle published from
-- them (signed with the hub's key, its version one more than the last), and the calls a shadow
-- rule would have decided otherwise, as the machines report them.
CREATE TABLE team_rules (
  rule_id    TEXT PRIMARY KEY,
  rule       JSONB NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE team_policy_bundles (
  version      INTEGER PRIMARY KEY,
  payload      TEXT NOT NULL,
  signature    TEXT NOT NULL,
  published_at BIGINT NOT NULL,
  published_by TEXT NOT NULL
);
CREATE TABLE team_shadow_records (
  machine_id TEXT NOT NULL REFERENCES machines (machine_id) ON DELETE CASCADE,
  record_id  BIGINT NOT NULL,
  rule_id    TEXT NOT NULL,
  version    INTEGER NOT NULL,
  action     TEXT NOT NULL,
  would      TEXT NOT NULL,
  actual     TEXT NOT NULL,
  summary    TEXT NOT NULL,
  agent      TEXT,
  at         BIGINT NOT NULL,
  PRIMARY KEY (machine_id, record_id)
);
CREATE INDEX team_shadow_by_rule ON team_shadow_records (rule_id, at);
-- The team policy version each machine last said it runs (at connect, and on each bundle).
ALTER TABLE machines ADD COLUMN team_policy_version INTEGER;
