-- Data jobs the hub runs once, after the migrations, at start (main/hub/stored-secrets-job.ts):
-- where each got to, so one that stopped half way (a crash, a restart) goes on from there.
-- `phase` is the table it works through, `after_key` the primary key of the last row it
-- finished there (each batch of rows commits with it), `phase_total` / `phase_done` its
-- progress over that table, `counts` what it changed, `kept` what it left on purpose.
CREATE TABLE hub_data_jobs (
  name        TEXT PRIMARY KEY,
  phase       TEXT NOT NULL,
  after_key   JSONB,
  phase_total BIGINT,
  phase_done  BIGINT NOT NULL DEFAULT 0,
  counts      JSONB NOT NULL DEFAULT '{}',
  kept        JSONB NOT NULL DEFAULT '[]',
  started_at  BIGINT,
  done_at     BIGINT
);

-- What a hub stored before the machines masked the secrets in what they send (and the hub in
-- what older machines send) is masked the same way, once: requests, rule offers, decisions,
-- shadow examples, desktop notices, and the audit rows the chain does not cover.
INSERT INTO hub_data_jobs (name, phase) VALUES ('mask_stored_secrets', 'requests');
